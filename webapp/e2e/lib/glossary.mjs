// The glossary of webapp/locales/glossary.md and the walk of the catalogs
// against it: one term per concept in each language.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { catalog, webappDir } from "./env.mjs";

const list = (cell) => cell.split(",").map((s) => s.trim()).filter(Boolean);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** glossary reads the table: {concept, en, sv, notSv, notConcept} per row, each a list but concept. */
export function glossary() {
  const rows = readFileSync(join(webappDir, "locales", "glossary.md"), "utf8")
    .split("\n")
    .filter((l) => l.startsWith("|"))
    .map((l) => l.split("|").slice(1, -1).map((c) => c.trim()));
  const [head, rule, ...body] = rows;
  if (head?.[0] !== "Concept" || !/^-+$/.test(rule?.[0] ?? "")) throw new Error("glossary.md: the table's head is not Concept | English | ...");
  return body.map(([concept, en, sv, notSv = "", notConcept = ""]) => ({
    concept,
    en: list(en),
    sv: list(sv),
    notSv: list(notSv),
    notConcept: list(notConcept),
  }));
}

// Simple placeholders ({name}) are values, not words; plural forms stay.
const words = (text) => text.replace(/\{\w+\}/g, " ");

/**
 * glossaryViolations walks every message of the English and Swedish
 * catalogs: a message whose English names a concept must name it in Swedish
 * with the glossary's term, and no Swedish message may use a word the
 * glossary refuses. It returns one line per violation.
 */
export function glossaryViolations(terms = glossary()) {
  const en = catalog("en");
  const sv = catalog("sv");
  const out = [];
  for (const term of terms) {
    const named = new RegExp(`\\b(${term.en.map(escape).join("|")})\\b`, "i");
    for (const [id, text] of Object.entries(en)) {
      let english = words(text);
      for (const other of term.notConcept) english = english.replace(new RegExp(escape(other), "gi"), " ");
      const m = english.match(named);
      if (!m || sv[id] === undefined) continue;
      const swedish = words(sv[id]).toLowerCase();
      if (!term.sv.some((s) => swedish.includes(s.toLowerCase()))) {
        out.push(`${id}: the English says "${m[0]}", the Swedish lacks "${term.sv[0]}": ${sv[id]}`);
      }
    }
    for (const [id, text] of Object.entries(sv)) {
      const bad = term.notSv.find((w) => words(text).toLowerCase().includes(w.toLowerCase()));
      if (bad) out.push(`${id}: the Swedish uses "${bad}" for ${term.concept.toLowerCase()}, not "${term.sv[0]}": ${text}`);
    }
  }
  return out;
}
