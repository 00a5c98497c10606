import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/action-form";
import { AppShell, sourceMapsHref } from "@/components/app-shell";
import { appErrorOf } from "@/components/app-error";
import { formatBytes } from "@/components/format";
import { BundleList, ReleaseFileTable } from "@/components/releases/artifact-list";
import { requestNow } from "@/components/request-now";
import { firstValues, hrefWith, type RawSearchParams } from "@/components/search-params";
import { SettingsNav } from "@/components/settings-nav";
import { SubmitButton } from "@/components/submit-button";
import { buttonClass, Card, EmptyState, inputClass, Section } from "@/components/ui";
import { requireWorkspace } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import type { Project } from "@/src/model";
import { hasScope } from "@/src/services/accounts/access";
import { ARTIFACT_WRITE_SCOPES, bundlesWithFiles, listAllReleaseFiles } from "@/src/services/artifacts/list";
import { parseUrlTest, testSourceMapUrl, type UrlTestInput, type UrlTestResult } from "@/src/services/artifacts/test-url";
import { deleteBundleAction, deleteReleaseFileAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Source maps" };

type Props = { params: Promise<{ org: string; project: string }>; searchParams: Promise<RawSearchParams> };

const BUNDLE_LIMIT = 100;
const TEST_FIELDS = ["url", "release", "dist", "debugId"] as const;

export default async function SourceMapsPage({ params, searchParams }: Props) {
  const { org, project: projectRef } = await params;
  const search = firstValues(await searchParams);
  const path = `/settings/${org}/projects/${projectRef}/source-maps`;
  const workspace = await requireWorkspace(org, hrefWith(path, search), projectRef);
  const project = workspace.project;
  if (!project) notFound();
  const { storage } = getRuntime();
  const slug = workspace.organization.slug;
  const now = requestNow();
  const canDelete = hasScope(workspace.access, ARTIFACT_WRITE_SCOPES);
  const [bundles, releaseFiles] = await Promise.all([bundlesWithFiles(storage, project, { limit: BUNDLE_LIMIT }), listAllReleaseFiles(storage, project)]);
  const test = await runUrlTest(project, search);

  return (
    <AppShell workspace={workspace} active="settings" projectHref={(p) => sourceMapsHref(slug, p)}>
      <SettingsNav workspace={workspace} active="source-maps" />
      <div className="mx-auto max-w-4xl space-y-8">
        <div>
          <p className="text-sm text-muted">Project settings · {project.name}</p>
          <h1 className="text-xl font-semibold">Source maps</h1>
          <p className="mt-1 max-w-2xl text-muted">
            What <code className="font-mono">sentry-cli sourcemaps upload</code> and release-file uploads stored for this project. JavaScript frames are
            resolved by the debug id of their file first, else by release, dist and URL.
          </p>
        </div>

        <Section title="Test a URL" id="test-url">
          <Card className="space-y-4 p-4">
            <form method="get" action={sourceMapsHref(slug, project)} className="grid gap-3 sm:grid-cols-2" data-testid="url-test-form">
              <Field id="test-url-input" name="url" label="URL of the minified file, as a stack frame names it" placeholder="https://example.com/static/app.min.js" value={search.url} wide />
              <Field id="test-release" name="release" label="Release (optional)" placeholder="web@1.2.3" value={search.release} />
              <Field id="test-dist" name="dist" label="Dist (optional)" value={search.dist} />
              <Field id="test-debug-id" name="debugId" label="Debug id (optional)" placeholder="from the event's debug_meta" value={search.debugId} wide />
              <div className="sm:col-span-2">
                <button type="submit" className={buttonClass.primary}>
                  Find the source map
                </button>
              </div>
            </form>
            {test ? <UrlTestAnswer test={test} /> : null}
          </Card>
        </Section>

        <Section title={`Artifact bundles (${bundles.length}${bundles.length === BUNDLE_LIMIT ? "+" : ""})`} id="bundles">
          {!canDelete && (bundles.length > 0 || releaseFiles.length > 0) ? (
            <p className="mb-2 text-sm text-muted" data-testid="read-only-note">
              Your role can view source maps but not delete them.
            </p>
          ) : null}
          {bundles.length > 0 ? (
            <BundleList
              bundles={bundles}
              now={now}
              actions={
                canDelete
                  ? ({ bundle }) => (
                      <ActionForm action={deleteBundleAction.bind(null, slug, project.slug, bundle.id)} testId="delete-bundle">
                        <SubmitButton className={buttonClass.secondary} title={`Delete bundle ${bundle.bundleId}`}>
                          Delete bundle
                        </SubmitButton>
                      </ActionForm>
                    )
                  : undefined
              }
            />
          ) : (
            <Card>
              <EmptyState title="No artifact bundles">
                <p>
                  Upload them with <code className="font-mono">sentry-cli sourcemaps inject ./dist</code> and{" "}
                  <code className="font-mono">sentry-cli sourcemaps upload --release &quot;$VERSION&quot; ./dist</code>.
                </p>
              </EmptyState>
            </Card>
          )}
        </Section>

        <Section title={`Release files (${releaseFiles.length})`} id="release-files">
          {releaseFiles.length > 0 ? (
            <ReleaseFileTable
              files={releaseFiles}
              now={now}
              showRelease
              actions={
                canDelete
                  ? (file) => (
                      <ActionForm action={deleteReleaseFileAction.bind(null, slug, project.slug, file.id)} testId="delete-release-file">
                        <SubmitButton className={buttonClass.ghost} title={`Delete ${file.name} of ${file.release}`}>
                          Delete
                        </SubmitButton>
                      </ActionForm>
                    )
                  : undefined
              }
            />
          ) : (
            <Card>
              <EmptyState title="No release files">
                <p>Files uploaded one by one to a release (the older upload, without debug ids) are listed here.</p>
              </EmptyState>
            </Card>
          )}
        </Section>
      </div>
    </AppShell>
  );
}

type UrlTest = { input: UrlTestInput; result: UrlTestResult } | { problem: string };

/** The lookup when the form was sent (a `url` parameter); a bad field is answered in words, not with an error page. */
async function runUrlTest(project: Project, search: Record<string, string | undefined>): Promise<UrlTest | null> {
  if (search.url === undefined) return null;
  try {
    const input = parseUrlTest(Object.fromEntries(TEST_FIELDS.map((field) => [field, search[field]])));
    return { input, result: await testSourceMapUrl(getRuntime().storage, project, input) };
  } catch (error) {
    const appError = appErrorOf(error);
    if (appError?.code !== "bad_request") throw error;
    return { problem: appError.message };
  }
}

const RESOLVED_WITH = { "debug-id": "its debug id", release: "release and URL, in an artifact bundle", "release-old": "release and URL, in a release file" } as const;

function UrlTestAnswer({ test }: { test: UrlTest }) {
  if ("problem" in test) {
    return (
      <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-500/40 dark:bg-red-500/10 dark:text-red-200" data-testid="url-test-result">
        {test.problem}
      </p>
    );
  }
  const { result } = test;
  const tried = (
    <p className="text-xs text-muted">
      URLs looked up: {result.tried.map((url, index) => (
        <span key={url}>
          {index > 0 ? ", " : ""}
          <code className="font-mono">{url}</code>
        </span>
      ))}
    </p>
  );
  if (!result.found) {
    return (
      <div role="status" className="space-y-1 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm dark:border-amber-500/40 dark:bg-amber-500/10" data-testid="url-test-result" data-found="false">
        <p className="font-medium">No source map would be applied</p>
        <p data-testid="url-test-reason">{result.note.reason}</p>
        {tried}
      </div>
    );
  }
  return (
    <div role="status" className="space-y-1 rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm dark:border-emerald-500/40 dark:bg-emerald-500/10" data-testid="url-test-result" data-found="true">
      <p className="font-medium">Source map found</p>
      <p>
        {result.inline ? "An inline map in " : ""}
        <code className="font-mono break-all" data-testid="url-test-map">{result.mapUrl}</code>, found by {RESOLVED_WITH[result.resolvedWith]}
        {result.size !== null ? ` (${formatBytes(result.size)})` : ""}.
      </p>
      {result.size === null ? <p className="text-red-700 dark:text-red-300">Its content is missing from storage: frames would stay unresolved.</p> : null}
      <p className="text-xs text-muted">
        SHA-1 <code className="font-mono">{result.sha1}</code>
      </p>
      {tried}
    </div>
  );
}

function Field({ id, name, label, placeholder, value, wide = false }: { id: string; name: string; label: string; placeholder?: string; value?: string; wide?: boolean }) {
  return (
    <div className={wide ? "sm:col-span-2" : ""}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input id={id} name={name} defaultValue={value ?? ""} placeholder={placeholder} maxLength={2000} className={inputClass} />
    </div>
  );
}
