/** Organisations, their projects and the projects' DSN keys: app data, as every layer sees it. Times are Unix ms. */

export interface Organization {
  id: string;
  slug: string;
  name: string;
  dateCreated: number;
}

export interface Project {
  id: string;
  organizationId: string;
  slug: string;
  name: string;
  platform: string | null;
  dateCreated: number;
}

export interface ProjectKey {
  id: string;
  projectId: string;
  label: string;
  /** 32 lower-case hex chars: the DSN's user part. */
  publicKey: string;
  isActive: boolean;
  dateCreated: number;
}
