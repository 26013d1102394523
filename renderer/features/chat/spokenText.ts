/**
 * A reply's Markdown as it is meant to be heard: the words without the marks that only style them (a screen
 * reader would say "star star Perth star star"). Links and images keep their words; code keeps its text.
 * Approximate on purpose: it serves a short announcement, and the reply itself is in the list, rendered.
 */
export function spokenText(markdown: string): string {
  return markdown
    .replace(/```[^\n]*\n?/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>+|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/(\*\*|__|~~)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(^|[^\w*])([*_])(?=\S)([^*_\n]*?\S)\2(?!\w)/g, '$1$3')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}
