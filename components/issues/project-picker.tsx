import type { Project } from "@/src/model";
import { buttonClass } from "../ui";

/**
 * The issue list's project filter: a plain GET form (works without JavaScript) inside a disclosure,
 * one checkbox per project (several make an organisation-wide list), or All / My projects. The
 * list's other filters ride along as hidden fields.
 */
export function ProjectPicker({
  action,
  projects,
  selected,
  selection,
  keep,
}: {
  action: string;
  projects: Project[];
  selected: string[];
  selection: "all" | "mine" | "some";
  keep: Record<string, string | undefined>;
}) {
  const chosen = new Set(selected);
  const label = selection === "all" ? "All projects" : selection === "mine" ? "My projects" : `${selected.length} project${selected.length === 1 ? "" : "s"}`;
  return (
    <details className="relative" data-testid="project-picker">
      <summary className={`${buttonClass.secondary} cursor-pointer list-none`}>Projects: {label}</summary>
      <form method="get" action={action} className="absolute right-0 z-20 mt-1 w-64 space-y-2 rounded-md border border-line bg-surface p-3 shadow-lg">
        {Object.entries(keep).map(([key, value]) => (value ? <input key={key} type="hidden" name={key} value={value} /> : null))}
        <fieldset className="max-h-64 space-y-1 overflow-y-auto">
          <legend className="sr-only">Projects</legend>
          {projects.map((project) => (
            <label key={project.id} className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="project" value={project.id} defaultChecked={selection === "all" || chosen.has(project.id)} />
              <span>{project.name}</span>
              <span className="font-mono text-xs text-subtle">{project.slug}</span>
            </label>
          ))}
        </fieldset>
        <div className="flex flex-wrap gap-2">
          <button type="submit" className={buttonClass.primary}>
            Apply
          </button>
          <button type="submit" name="project" value="-1" formNoValidate className={buttonClass.secondary}>
            All projects
          </button>
          <button type="submit" name="project" value="mine" formNoValidate className={buttonClass.secondary}>
            My projects
          </button>
        </div>
      </form>
    </details>
  );
}
