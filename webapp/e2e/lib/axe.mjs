// Automated accessibility check with axe-core, run inside the page.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const axePath = require.resolve("axe-core/axe.min.js");
let axeSource;

export const FAILING_IMPACTS = ["serious", "critical"];

/**
 * checkA11y runs axe-core on the page as it is now and throws, listing every
 * violation, when one has a serious or critical impact. Minor and moderate
 * ones are returned (and can be printed as diagnostics).
 * @returns {Promise<{failing: object[], other: object[], report: string}>}
 */
export async function checkA11y(page, label, { exclude = [] } = {}) {
  if (!(await page.evaluate(() => typeof window.axe === "object"))) {
    // Evaluated through the DevTools protocol, as the page's own scripts are
    // not: a <script> tag of the test would break the page's
    // Content-Security-Policy, which the tests keep.
    axeSource ??= readFileSync(axePath, "utf8");
    await page.evaluate(axeSource);
  }
  const results = await page.evaluate(
    async ({ exclude }) =>
      window.axe.run(
        { include: [document], exclude: exclude.map((s) => [s]) },
        {
          resultTypes: ["violations"],
          runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
        },
      ),
    { exclude },
  );
  const failing = results.violations.filter((v) => FAILING_IMPACTS.includes(v.impact));
  const other = results.violations.filter((v) => !FAILING_IMPACTS.includes(v.impact));
  const report = formatViolations(results.violations);
  if (failing.length) {
    throw new Error(`axe-core: ${failing.length} serious or critical violation(s) on ${label} (${page.url()}):\n${formatViolations(failing)}`);
  }
  return { failing, other, report };
}

export function formatViolations(violations) {
  return violations
    .map((v) => {
      const nodes = v.nodes
        .slice(0, 8)
        .map((n) => `      ${n.target.join(" ")}\n        ${n.failureSummary.replace(/\n/g, "\n        ")}`)
        .join("\n");
      const more = v.nodes.length > 8 ? `\n      … and ${v.nodes.length - 8} more` : "";
      return `  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes}${more}`;
    })
    .join("\n");
}
