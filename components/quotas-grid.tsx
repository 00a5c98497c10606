import { inputClass } from "@/components/ui";
import { QUOTA_CATEGORIES, QUOTA_WINDOWS, type QuotaCategory, type QuotaWindow } from "@/src/model";
import { quotaFieldName } from "@/src/services/quotas/form";
import type { QuotaJson } from "@/src/services/quotas/settings";

const CATEGORY_LABELS: Record<QuotaCategory, string> = {
  error: "Errors",
  transaction: "Transactions",
  span: "Spans",
  session: "Sessions",
  attachment: "Attachments (bytes)",
  log_item: "Logs",
  log_byte: "Log bytes",
};

/**
 * One number field per data category and window: empty means no quota. Under each set quota, how
 * much of the current window is used. A plain form: it works without JavaScript; the fields are
 * read by quotasFromForm (src/services/quotas/form.ts).
 */
export function QuotasGrid({ quotas, disabled, testId }: { quotas: QuotaJson[]; disabled: boolean; testId: string }) {
  const find = (category: QuotaCategory, window: QuotaWindow) => quotas.find((quota) => quota.category === category && quota.window === window);
  return (
    <table className="w-full text-sm" data-testid={testId}>
      <thead>
        <tr className="text-left text-muted">
          <th className="py-1 pr-2 font-medium">Category</th>
          {QUOTA_WINDOWS.map((window) => (
            <th key={window} className="py-1 pr-2 font-medium">
              per {window}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {QUOTA_CATEGORIES.map((category) => (
          <tr key={category} className="border-t border-line align-top">
            <th scope="row" className="py-2 pr-2 text-left font-medium">
              {CATEGORY_LABELS[category]}
            </th>
            {QUOTA_WINDOWS.map((window) => {
              const quota = find(category, window);
              const field = quotaFieldName(category, window);
              return (
                <td key={window} className="py-2 pr-2">
                  <input
                    id={field}
                    name={field}
                    inputMode="numeric"
                    aria-label={`${CATEGORY_LABELS[category]} per ${window}`}
                    placeholder="no limit"
                    defaultValue={quota ? String(quota.limit) : ""}
                    disabled={disabled}
                    className={`${inputClass} w-full`}
                  />
                  {quota ? (
                    <p className="mt-0.5 text-xs text-subtle" data-testid={`used-${category}-${window}`}>
                      {quota.used.toLocaleString("en")} used
                    </p>
                  ) : null}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
