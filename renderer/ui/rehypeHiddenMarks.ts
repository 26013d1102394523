// The marks of hidden characters in rendered Markdown: every run the neutraliser marked (or that was
// marked just before parsing) becomes the same styled mark UntrustedText shows, wherever it stands — in a
// paragraph, a table, a code block. It runs after highlighting, which may have cut a marker across the
// spans of a code line, so a marker's pieces are first gathered back into one text node.

import type { Element, ElementContent, Root, Text } from 'hast';
import { splitHidden } from '../../shared/visibleText.ts';

const MARK_START = '\uFDD0';
const MARK_END = '\uFDD1';

export function rehypeHiddenMarks() {
  return (tree: Root): void => {
    const texts: Text[] = [];
    collectTexts(tree, texts);
    rejoinCutMarkers(texts);
    markIn(tree);
  };
}

function collectTexts(node: Root | Element, into: Text[]): void {
  for (const child of node.children) {
    if (child.type === 'text') into.push(child);
    else if (child.type === 'element') collectTexts(child, into);
  }
}

/** A marker begun in one text node and ended in later ones is moved whole into the first. */
function rejoinCutMarkers(texts: Text[]): void {
  for (let index = 0; index < texts.length; index++) {
    const text = texts[index] as Text;
    const open = text.value.lastIndexOf(MARK_START);
    if (open === -1 || text.value.indexOf(MARK_END, open) !== -1) continue;
    for (let next = index + 1; next < texts.length; next++) {
      const later = texts[next] as Text;
      const end = later.value.indexOf(MARK_END);
      const taken = end === -1 ? later.value : later.value.slice(0, end + 1);
      text.value += taken;
      later.value = later.value.slice(taken.length);
      if (end !== -1) break;
    }
  }
}

function markIn(node: Root | Element): void {
  const children: (typeof node.children)[number][] = [];
  let changed = false;
  for (const child of node.children) {
    if (child.type === 'element') markIn(child);
    if (child.type !== 'text') {
      children.push(child);
      continue;
    }
    const parts = splitHidden(child.value);
    if (!parts.some((part) => part.hidden)) {
      children.push(child);
      continue;
    }
    changed = true;
    for (const part of parts) {
      children.push(
        part.hidden
          ? ({ type: 'element', tagName: 'mark', properties: { className: ['hidden-char'], title: part.title }, children: [{ type: 'text', value: part.text }] } satisfies ElementContent)
          : { type: 'text', value: part.text },
      );
    }
  }
  if (changed) node.children = children as typeof node.children;
}
