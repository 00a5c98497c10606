"use client";

/** Checks or unchecks every issue checkbox of the bulk form on this page. */
export function SelectAllIssues({ form }: { form: string }) {
  return (
    <label className="flex items-center gap-1.5 text-sm">
      <input
        type="checkbox"
        data-testid="select-all"
        onChange={(event) => {
          for (const box of document.querySelectorAll<HTMLInputElement>(`input[type=checkbox][name=id][form="${form}"]`)) box.checked = event.currentTarget.checked;
        }}
      />
      Select page
    </label>
  );
}
