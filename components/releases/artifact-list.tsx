import type { ReactNode } from "react";
import type { ArtifactKind, Project, ReleaseFile } from "@/src/model";
import type { BundleWithFiles } from "@/src/services/artifacts/list";
import { formatBytes } from "../format";
import { Card, Pill, RelativeTime } from "../ui";

const KIND_LABELS: Record<ArtifactKind, string> = { minified_source: "minified", source_map: "source map", source: "source", other: "other" };

function KindPill({ kind }: { kind: ArtifactKind }) {
  return <Pill tone={kind === "source_map" ? "green" : "neutral"}>{KIND_LABELS[kind]}</Pill>;
}

function DebugId({ id }: { id: string | null }) {
  return id ? <code className="font-mono text-xs break-all" data-testid="debug-id">{id}</code> : <span className="text-subtle">—</span>;
}

const th = "px-3 py-1.5 text-left text-[11px] font-semibold tracking-wide text-muted uppercase";
const td = "px-3 py-1.5 align-top";

/**
 * Artifact bundles (what `sentry-cli sourcemaps upload` sends), each with its files and their debug
 * ids. `actions` renders a control per bundle (the settings page's delete button).
 */
export function BundleList({
  bundles,
  now,
  actions,
}: {
  bundles: (BundleWithFiles & { projects?: Project[] })[];
  now: number;
  actions?: (entry: BundleWithFiles) => ReactNode;
}) {
  return (
    <ul className="space-y-3" data-testid="bundles">
      {bundles.map((entry) => {
        const { bundle, files } = entry;
        return (
          <li key={bundle.id} data-testid="bundle">
            <Card className="overflow-hidden">
              <div className="flex flex-wrap items-start justify-between gap-2 border-b border-line px-4 py-3">
                <div className="min-w-0 space-y-1">
                  <p className="text-sm">
                    Bundle <code className="font-mono text-xs break-all" data-testid="bundle-id">{bundle.bundleId}</code>
                  </p>
                  <p className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted">
                    <span>{bundle.release ? <>Release <span className="font-mono">{bundle.release}</span></> : "No release"}</span>
                    {bundle.dist ? <span>Dist <span className="font-mono">{bundle.dist}</span></span> : null}
                    <span>
                      {bundle.fileCount} {bundle.fileCount === 1 ? "file" : "files"} · {formatBytes(bundle.size)}
                    </span>
                    <span>
                      Uploaded <RelativeTime ms={bundle.dateUploaded} now={now} />
                    </span>
                    {entry.projects && entry.projects.length > 0 ? <span>Projects {entry.projects.map((project) => project.slug).join(", ")}</span> : null}
                  </p>
                </div>
                {actions?.(entry)}
              </div>
              <div className="overflow-x-auto">
                <table className="w-full min-w-[40rem] text-[13px]">
                  <thead className="bg-surface-2">
                    <tr>
                      <th scope="col" className={th}>File</th>
                      <th scope="col" className={th}>Kind</th>
                      <th scope="col" className={th}>Debug id</th>
                      <th scope="col" className={`${th} text-right`}>Size</th>
                    </tr>
                  </thead>
                  <tbody>
                    {files.map((file) => (
                      <tr key={`${file.url}:${file.sha1}`} className="border-t border-line" data-testid="bundle-file">
                        <td className={`${td} font-mono text-xs break-all`}>{file.url}</td>
                        <td className={td}>
                          <KindPill kind={file.kind} />
                        </td>
                        <td className={td}>
                          <DebugId id={file.debugId} />
                        </td>
                        <td className={`${td} text-right whitespace-nowrap tabular-nums`}>{formatBytes(file.size)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </Card>
          </li>
        );
      })}
    </ul>
  );
}

/** Files uploaded one by one to a release (the older upload, `POST …/releases/{version}/files/`). */
export function ReleaseFileTable({
  files,
  now,
  showRelease,
  actions,
}: {
  files: (ReleaseFile & { project?: Project })[];
  now: number;
  showRelease: boolean;
  actions?: (file: ReleaseFile) => ReactNode;
}) {
  return (
    <Card className="overflow-x-auto">
      <table className="w-full min-w-[44rem] text-[13px]" data-testid="release-files">
        <thead className="bg-surface-2">
          <tr>
            {showRelease ? <th scope="col" className={th}>Release</th> : null}
            <th scope="col" className={th}>File</th>
            <th scope="col" className={th}>Kind</th>
            <th scope="col" className={th}>Debug id</th>
            <th scope="col" className={`${th} text-right`}>Size</th>
            <th scope="col" className={th}>Uploaded</th>
            {actions ? <th scope="col" className={th}><span className="sr-only">Actions</span></th> : null}
          </tr>
        </thead>
        <tbody>
          {files.map((file) => (
            <tr key={file.id} className="border-t border-line" data-testid="release-file">
              {showRelease ? <td className={`${td} font-mono text-xs`}>{file.release}</td> : null}
              <td className={`${td} font-mono text-xs break-all`}>
                {file.name}
                {file.dist ? <span className="ml-2 text-subtle">dist {file.dist}</span> : null}
              </td>
              <td className={td}>
                <KindPill kind={file.kind} />
              </td>
              <td className={td}>
                <DebugId id={file.debugId} />
              </td>
              <td className={`${td} text-right whitespace-nowrap tabular-nums`}>{formatBytes(file.size)}</td>
              <td className={`${td} whitespace-nowrap text-muted`}>
                <RelativeTime ms={file.dateCreated} now={now} />
              </td>
              {actions ? <td className={`${td} text-right`}>{actions(file)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
