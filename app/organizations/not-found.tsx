import { NotFoundView } from "@/components/not-found-view";

export default function OrganizationsNotFound() {
  return <NotFoundView />;
}
