import { readMultipart } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { serializeReleaseFile } from "@/src/api/serializers/release";
import { AppError } from "@/src/errors";
import { uploadReleaseFile } from "@/src/services/artifacts/upload";
import { listReleaseFiles, requireRelease } from "@/src/services/releases/releases";

export const dynamic = "force-dynamic";

/** Multipart framing on top of the file itself. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/releases/{version}/files/", {
  GET: async (_request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const release = await requireRelease(runtime.storage, access, params.version);
    return json((await listReleaseFiles(runtime.storage, project, release)).map(serializeReleaseFile));
  },
  /** The older upload: multipart `file`, `name` (its URL), optional `dist` and `header` ("Name: value") fields. */
  POST: async (request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const release = await requireRelease(runtime.storage, access, params.version);
    if (!release.projectIds.includes(project.id)) throw new AppError("not_found", `release ${release.version} not found in project ${project.slug}`);
    const parts = await readMultipart(request, runtime.config.artifacts.maxBytes + FORM_OVERHEAD_BYTES);
    const text = (field: string) => {
      const part = parts.find((candidate) => candidate.field === field && candidate.filename === null);
      return part ? part.bytes.toString("utf8") : null;
    };
    const file = parts.find((part) => part.field === "file" && part.filename !== null);
    const saved = await uploadReleaseFile(runtime.storage, access, project.id, release.version, {
      file: file ? { filename: file.filename ?? "", bytes: file.bytes } : null,
      name: text("name"),
      dist: text("dist"),
      headers: parts.filter((part) => part.field === "header" && part.filename === null).map((part) => part.bytes.toString("utf8")),
    }, runtime.config.artifacts.maxBytes);
    return json(serializeReleaseFile(saved), 201);
  },
});
