import { memo } from 'react';
import type { ReactNode } from 'react';
import Markdown from 'react-markdown';
import type { Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';

/**
 * A model's reply as Markdown, with code highlighted. Raw HTML in it is never rendered (it is dropped);
 * a link opens only after the person confirms its full address; an image is never fetched (it is shown
 * as a link to confirm, like any other address).
 */
export const MarkdownText = memo(function MarkdownText({ text }: { text: string }) {
  return (
    <div className="markdown">
      <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={[[rehypeHighlight, { detect: false }]]} skipHtml components={components}>
        {text}
      </Markdown>
    </div>
  );
});

function ConfirmedLink({ href, children }: { href: string | undefined; children: ReactNode }) {
  if (!href) return <>{children}</>;
  return (
    <a
      href={href}
      rel="noopener noreferrer"
      target="_blank"
      title={href}
      onClick={(event) => {
        event.preventDefault();
        if (window.confirm(`Open this address in your browser?\n\n${href}`)) window.open(href, '_blank', 'noopener,noreferrer');
      }}
    >
      {children}
    </a>
  );
}

const components: Components = {
  a: ({ href, children }) => <ConfirmedLink href={href}>{children}</ConfirmedLink>,
  img: ({ src, alt }) => <ConfirmedLink href={typeof src === 'string' ? src : undefined}>[image: {alt || 'untitled'}]</ConfirmedLink>,
};
