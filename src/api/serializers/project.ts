/**
 * Sentry's project shape (ProjectSerializer plus the `organization` that ProjectWithOrganization
 * adds). Membership fields are constant until accounts and teams exist.
 */
import type { Organization, Project } from "../../model";
import { isoDate, LETTER_AVATAR } from "./common";
import { serializeOrganization, type OrganizationJson } from "./organization";

export interface ProjectJson {
  id: string;
  slug: string;
  name: string;
  platform: string | null;
  dateCreated: string;
  status: "active";
  isBookmarked: boolean;
  isMember: boolean;
  hasAccess: boolean;
  isPublic: boolean;
  isInternal: boolean;
  features: string[];
  avatar: typeof LETTER_AVATAR;
  organization: OrganizationJson;
}

export function serializeProject(project: Project, organization: Organization, publicUrl: string): ProjectJson {
  return {
    id: project.id,
    slug: project.slug,
    name: project.name,
    platform: project.platform,
    dateCreated: isoDate(project.dateCreated),
    status: "active",
    isBookmarked: false,
    isMember: true,
    hasAccess: true,
    isPublic: false,
    isInternal: false,
    features: [],
    avatar: LETTER_AVATAR,
    organization: serializeOrganization(organization, publicUrl),
  };
}
