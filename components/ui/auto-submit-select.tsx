"use client";

import { useRouter } from "next/navigation";
import { inputClass } from "../ui";

/**
 * A select that applies its GET form when changed: the page moves to the form's URL, leaving out
 * empty values (`?project=` would be noise). Without JavaScript the form's own submit does it.
 */
export function AutoSubmitSelect({ name, defaultValue, options }: { name: string; defaultValue: string; options: readonly { value: string; label: string }[] }) {
  const router = useRouter();
  return (
    <select
      name={name}
      defaultValue={defaultValue}
      className={`${inputClass} w-auto min-w-[10rem] py-1.5`}
      onChange={(event) => {
        const form = event.currentTarget.form;
        if (!form) return;
        const query = new URLSearchParams();
        for (const [key, value] of new FormData(form)) if (typeof value === "string" && value) query.set(key, value);
        const text = query.toString();
        router.push(`${form.getAttribute("action") ?? ""}${text ? `?${text}` : ""}`);
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
