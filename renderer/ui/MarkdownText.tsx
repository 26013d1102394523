import { memo, useContext, useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import Markdown from 'react-markdown';
import type { Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { checkOfferedAddress } from '../../shared/offeredAddress.ts';
import { CopyButton } from './CopyButton.tsx';
import { askToOpen } from './LinkConfirmation.tsx';
import { markHidden } from '../../shared/serverText.ts';
import { shownText } from '../../shared/visibleText.ts';
import { rehypeHiddenMarks } from './rehypeHiddenMarks.ts';
import { whenIdle } from './idleWork.ts';
import { MarkdownReferences } from './markdownReferences.ts';

/**
 * A model's reply (or a server's Markdown resource) as Markdown, with code highlighted. Hidden and control
 * characters show as the same marks as in any server text, where they are. Raw HTML in it is never rendered (it is dropped);
 * a link opens only after the person confirms its full address; an image is never fetched (it is shown
 * as a link to confirm, like any other address). Highlighting waits for an idle moment after scrolling
 * has settled, so scrolling fast through a long conversation never waits for it.
 */
export const MarkdownText = memo(function MarkdownText({ text }: { text: string }) {
  const hasCode = CODE_FENCE.test(text);
  // The highlighted tree belongs to the text it was made from: a reply still streaming changes its text,
  // and a tree made from an earlier part of it (in an idle moment mid-stream) must never stand for the rest.
  const [highlighted, setHighlighted] = useState<{ text: string; tree: ReactNode } | null>(null);
  const tree = highlighted?.text === text ? highlighted.tree : hasCode ? (cache.get(`hl:${text}`) ?? null) : null;
  useEffect(() => {
    if (!hasCode || tree !== null) return;
    return whenIdle(() => setHighlighted({ text, tree: rendered(text, true) }), { whenScrollSettles: true });
  }, [hasCode, tree, text]);
  return <div className="markdown">{tree ?? rendered(text, false)}</div>;
});

const CODE_FENCE = /^ {0,3}(```|~~~)/m;

// A virtualised list mounts the same message again each time it scrolls back into view: the element
// tree (immutable) is kept per text and kind, the newest 400.
const cache = new Map<string, ReactNode>();
const CACHE_SIZE = 400;

function rendered(text: string, highlight: boolean): ReactNode {
  const key = `${highlight ? 'hl' : 'plain'}:${text}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  // react-markdown's Markdown is a plain function without hooks, so its element tree can be made here.
  const element = Markdown({
    // Bidi controls, zero-width and control characters in a reply (the model may echo them) are marked
    // before parsing, so none reaches a link or a code block raw; the marks are drawn last.
    children: markHidden(text),
    remarkPlugins: [remarkGfm],
    rehypePlugins: highlight ? [[rehypeHighlight, { detect: false }], rehypeHiddenMarks] : [rehypeHiddenMarks],
    skipHtml: true,
    components,
  });
  cache.set(key, element);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return element;
}

/**
 * Makes the element trees of these texts ahead of need, in idle moments: the rows a person is about to
 * scroll to then mount without parsing Markdown in the frame that shows them. Returns the cancel.
 */
export function prepareMarkdown(texts: readonly string[]): () => void {
  const waiting = texts.filter((text) => !cache.has(`plain:${text}`));
  if (waiting.length === 0) return () => undefined;
  // Each text takes well under a millisecond or two, so each is a job of its own in the idle queue.
  const cancels = waiting.map((text) => whenIdle(() => rendered(text, false)));
  return () => {
    for (const cancel of cancels) cancel();
  };
}

function ConfirmedLink({ href, children }: { href: string | undefined; children: ReactNode }) {
  // Read at render: the element trees are cached, the components in them are not.
  const openReference = useContext(MarkdownReferences);
  if (!href) return <>{children}</>;
  // A reply may quote an address a server handed over: the sign-in URL policy decides whether it is a link at all.
  const verdict = checkOfferedAddress(href);
  if (!verdict.ok) {
    // A reference with no address (a heading of the same text, a file beside it: a resource's own
    // links) has nothing to open: its words stay, without a note after each of them; an address Atrium
    // refuses says why.
    const reference = !URL.canParse(href);
    const open = reference ? openReference?.(href) : undefined;
    if (open) {
      return (
        <a
          href={href}
          title="Opens it here: a resource of the same server"
          onClick={(event) => {
            event.preventDefault();
            open();
          }}
        >
          {children}
        </a>
      );
    }
    return (
      <span className="link-refused" title={reference ? 'Not a link Atrium opens: it names no address' : `Atrium will not open this address: ${verdict.reason}`}>
        {children}
        {reference ? null : <span className="muted"> (not opened: {verdict.reason})</span>}
      </span>
    );
  }
  const { address } = verdict;
  return (
    <a
      href={href}
      rel="noopener noreferrer"
      target="_blank"
      title={shownText(href)}
      onClick={(event) => {
        event.preventDefault();
        void askToOpen(address);
      }}
    >
      {children}
    </a>
  );
}

/** A code block with its Copy: the code as shown (a hidden character as its mark), without the highlighting. */
function CodeBlock({ children }: { children: ReactNode }) {
  const pre = useRef<HTMLPreElement>(null);
  return (
    <div className="code-block">
      <pre ref={pre}>{children}</pre>
      <CopyButton label="Copy the code" text={() => pre.current?.textContent ?? ''} />
    </div>
  );
}

const components: Components = {
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
  a: ({ href, children }) => <ConfirmedLink href={href}>{children}</ConfirmedLink>,
  img: ({ src, alt }) => <ConfirmedLink href={typeof src === 'string' ? src : undefined}>[image: {alt || 'untitled'}]</ConfirmedLink>,
};
