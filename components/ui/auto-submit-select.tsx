"use client";

import { inputClass } from "../ui";

/**
 * A select that submits its form when changed (the filter bar's GET form: the URL changes). With
 * JavaScript an empty value is left out of the URL rather than sent as `name=`.
 */
export function AutoSubmitSelect({ name, defaultValue, options }: { name: string; defaultValue: string; options: readonly { value: string; label: string }[] }) {
  return (
    <select
      name={name}
      defaultValue={defaultValue}
      className={`${inputClass} w-auto min-w-[10rem] py-1.5`}
      onChange={(event) => {
        const select = event.currentTarget;
        // A blank choice carries no name, so the form leaves the parameter out.
        if (select.value) select.name = name;
        else select.removeAttribute("name");
        select.form?.requestSubmit();
      }}
    >
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}
