/** Sentry's OrganizationSerializer, reduced to what exists here (no auth providers, no features). */
import type { Organization } from "../../model";
import { isoDate, LETTER_AVATAR } from "./common";

export interface OrganizationJson {
  id: string;
  slug: string;
  name: string;
  dateCreated: string;
  status: { id: "active"; name: "active" };
  isEarlyAdopter: boolean;
  require2FA: boolean;
  avatar: typeof LETTER_AVATAR;
  /** sentry-cli sends organisation requests to `regionUrl`; one server is its own region. */
  links: { organizationUrl: string; regionUrl: string };
  hasAuthProvider: boolean;
  features: string[];
}

export function serializeOrganization(organization: Organization, publicUrl: string): OrganizationJson {
  return {
    id: organization.id,
    slug: organization.slug,
    name: organization.name,
    dateCreated: isoDate(organization.dateCreated),
    status: { id: "active", name: "active" },
    isEarlyAdopter: false,
    require2FA: false,
    avatar: LETTER_AVATAR,
    links: { organizationUrl: publicUrl, regionUrl: publicUrl },
    hasAuthProvider: false,
    features: [],
  };
}
