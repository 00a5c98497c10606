-- Span rows are the most written rows (15 per streamed page load), and each index is one more
-- B-tree insert per span. spans_project_segments served no query: the span list filters is_segment
-- after reading spans_project_end. spans_end served retention only, which now deletes spans per
-- project through spans_project_end (src/storage/sqlite/retention.ts).
DROP INDEX spans_project_segments;
DROP INDEX spans_end;
