// The window's stylesheet is written flat: each rule at the top level, or inside @media / @supports.
// CSS nesting makes a rule whose closing brace went missing (a merge that appended a section after it
// once did, three times) swallow every rule below it, which then applies only inside that selector: the
// Tasks panel, skills, install dialogs and the sandbox's card were left unstyled, with no error anywhere.
// So a block never closed, and a rule inside a rule, are refused here, each with its line.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import postcss, { CssSyntaxError } from 'postcss';
import type { Root, Rule } from 'postcss';

const STYLESHEET = new URL('./styles.css', import.meta.url);

/** What is wrong with the stylesheet's structure, one line each ("line N: …"); none when it is flat. */
function structureProblems(css: string): string[] {
  let root: Root;
  try {
    root = postcss.parse(css);
  } catch (error) {
    if (error instanceof CssSyntaxError) return [`line ${error.line}: ${error.reason}`];
    throw error;
  }
  const found: string[] = [];
  root.walkRules((rule: Rule) => {
    if (rule.parent?.type !== 'rule') return;
    const outer = rule.parent as Rule;
    found.push(`line ${rule.source?.start?.line}: ${rule.selector} (inside "${outer.selector}" at line ${outer.source?.start?.line}, never closed?)`);
  });
  return found;
}

test('every rule of the stylesheet stands on its own: none is swallowed by a rule left open above it', () => {
  const problems = structureProblems(readFileSync(STYLESHEET, 'utf8'));
  assert.deepEqual(problems.slice(0, 5), [], `renderer/styles.css: ${problems.length} problems`);
});

test('the check finds a closing brace missing, at the end or balanced by a stray one below, and takes @media blocks as they are', () => {
  assert.deepEqual(structureProblems('.a {\n  color: red;\n\n.b {\n  color: blue;\n}\n'), ['line 1: Unclosed block']);
  assert.deepEqual(structureProblems('.a {\n  color: red;\n\n.b {\n  color: blue;\n}\n}\n'), ['line 4: .b (inside ".a" at line 1, never closed?)']);
  assert.deepEqual(structureProblems('@media (max-width: 600px) {\n  .a { color: red; }\n}\n.b { color: blue; }\n'), []);
});
