// `--reporter json`: the report as schemas/report.schema.json describes it.
import type { ConformanceReport } from './model.js';

export function renderJson(report: ConformanceReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
