import Link from "next/link";
import { getRuntime } from "@/src/runtime";
import { listKeys } from "@/src/services/keys/list-keys";
import { dsnFor } from "@/src/services/projects/dsn";
import type { Project } from "@/src/model";
import { keysHref } from "../app-shell";
import { hrefWith } from "../search-params";
import { SetupGuide, storeUrlFor } from "../setup-guide";
import { buttonClass, EmptyState } from "../ui";

/** The project has issues, just none on this list: say why and offer the way out. */
export function NoMatchingIssues({ project, base, filtered, status }: { project: Project; base: string; filtered: boolean; status: string }) {
  if (!filtered) {
    return (
      <EmptyState title="No unresolved issues">
        <p>Everything in {project.name} is resolved or ignored.</p>
        <Link href={hrefWith(base, { project: project.id, status: "all" })} className={`${buttonClass.secondary} mt-4`}>
          Show all issues
        </Link>
      </EmptyState>
    );
  }
  return (
    <EmptyState title="No issues match these filters">
      <p>{status === "unresolved" ? "Try another search, or include resolved and ignored issues." : "Try another search or fewer filters."}</p>
      <Link href={hrefWith(base, { project: project.id })} className={`${buttonClass.secondary} mt-4`}>
        Clear filters
      </Link>
    </EmptyState>
  );
}

/** No event has ever arrived: the DSN and setup snippets are the next step. */
export async function WaitingForEvents({ project, organizationSlug }: { project: Project; organizationSlug: string }) {
  const { storage, publicUrl } = getRuntime();
  const key = (await listKeys(storage, project)).find((candidate) => candidate.isActive);
  return (
    <div className="px-4 py-8 sm:px-8" data-testid="waiting-for-events">
      <div className="mx-auto max-w-3xl">
        <div className="mb-5 flex items-center gap-3">
          <span className="relative flex size-3 shrink-0">
            <span className="absolute inline-flex size-full animate-ping rounded-full bg-accent opacity-60 motion-reduce:animate-none" />
            <span className="relative inline-flex size-3 rounded-full bg-accent" />
          </span>
          <div>
            <h2 className="text-base font-semibold">Waiting for the first event</h2>
            <p className="text-muted">Point an SDK at this project&apos;s DSN; errors show up here within seconds.</p>
          </div>
        </div>
        {key ? (
          <SetupGuide dsn={dsnFor(publicUrl, key)} storeUrl={storeUrlFor(publicUrl, project.id, key.publicKey)} />
        ) : (
          <p>
            This project has no active key.{" "}
            <Link href={keysHref(organizationSlug, project)} className="text-accent underline">
              Create one in the project settings
            </Link>
            .
          </p>
        )}
      </div>
    </div>
  );
}
