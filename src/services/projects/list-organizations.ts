import type { Organization } from "../../model";
import type { Storage } from "../../storage/types";

/** Every organisation; until accounts exist there is no membership to filter by. */
export async function listOrganizations(storage: Storage): Promise<Organization[]> {
  return storage.organizations.list();
}
