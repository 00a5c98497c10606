/** The Security & Privacy form's fields (components/privacy-form.tsx) as the privacy service's input. */
const lines = (value: FormDataEntryValue | null) =>
  String(value ?? "")
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter((line) => line !== "");

export function privacyFormInput(form: FormData) {
  return {
    dataScrubber: form.get("dataScrubber") === "on",
    dataScrubberDefaults: form.get("dataScrubberDefaults") === "on",
    scrubIPAddresses: form.get("scrubIPAddresses") === "on",
    sensitiveFields: lines(form.get("sensitiveFields")),
    safeFields: lines(form.get("safeFields")),
    relayPiiConfig: String(form.get("relayPiiConfig") ?? ""),
  };
}
