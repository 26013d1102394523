import { useMemo, useState } from 'react';
import type { SavedContentBlock, SavedToolResult } from '../../../shared/conversation.ts';
import type { OutputSchemaAtCall } from '../../../shared/domain.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { base64ByteCount, blobAsText } from '../../../shared/blobText.ts';
import { OutputSchemaTree, StructuredContent } from './StructuredContent.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { shownText } from '../../../shared/visibleText.ts';
import { withoutNamesInView } from '../../../shared/sentence.ts';
import { DEFAULT_RESULT_BUDGET_CHARS } from '../../../shared/resultBudget.ts';

/**
 * Every kind of content a tool may return, each shown for what it is: text, images, audio with a player,
 * links to resources (opened in the resources view), embedded resources, and structured content as a
 * tree beside whether it was checked against the tool's output schema (offered folded). A failure to call
 * the tool is shown apart from a result in which the tool reports a failure.
 */
export function ToolResultView({ serverId, tool, result, outputSchema }: { serverId: string; tool: string; result: SavedToolResult; outputSchema?: OutputSchemaAtCall | undefined }) {
  if (result.error !== undefined) {
    return (
      <>
        <p className="tool-call-failure" role="alert">
          {/* The card is titled server / tool: the error need not begin with them again. */}
          The call failed: <UntrustedText text={withoutNamesInView(result.error, serverId, `tool "${tool}"`)} />
        </p>
        <OutputSchemaTree outputSchema={outputSchema} />
      </>
    );
  }
  const content = result.content ?? [];
  return (
    <div className={result.isError ? 'tool-result tool-result-error' : 'tool-result'} aria-label={`Result of ${tool}`}>
      {result.isError ? <p className="tool-result-flag">The tool reported a failure:</p> : null}
      {content.map((block, index) => (
        <Block key={index} serverId={serverId} tool={tool} block={block} />
      ))}
      {result.structuredContent !== undefined ? <StructuredContent value={result.structuredContent} outputSchema={outputSchema} isError={result.isError === true} /> : null}
      <OutputSchemaTree outputSchema={outputSchema} />
    </div>
  );
}

function Block({ serverId, tool, block }: { serverId: string; tool: string; block: SavedContentBlock }) {
  const showResource = useAtriumStore((state) => state.showResource);
  switch (block.type) {
    case 'text':
      return <LongText text={block.text ?? ''} />;
    case 'image':
      return block.data && block.mimeType?.startsWith('image/') ? <img className="tool-result-image" alt={`Image returned by ${tool}`} src={`data:${block.mimeType};base64,${block.data}`} /> : null;
    case 'audio':
      return block.data && block.mimeType?.startsWith('audio/') ? <audio className="tool-result-audio" controls aria-label={`Audio returned by ${tool}`} src={`data:${block.mimeType};base64,${block.data}`} /> : null;
    case 'resource_link':
      return (
        <p>
          Resource:{' '}
          <button type="button" className="link-button" onClick={() => showResource(serverId, block.uri ?? '')}>
            <UntrustedText text={block.title ?? block.name ?? block.uri ?? ''} />
          </button>{' '}
          <span className="muted code-inline">
            <UntrustedText text={block.uri ?? ''} />
          </span>
        </p>
      );
    case 'resource':
      return block.resource ? <EmbeddedResource resource={block.resource} /> : null;
    default:
      return <p className="muted">[{block.type} content]</p>;
  }
}

/**
 * How much of a result's text the card lays out at first. A page with megabytes of text in it stops
 * answering for seconds while it lays it out (a 30 MB result froze the window for 3 s); the rest is one
 * click away, or copied whole.
 */
const SHOWN_CHARACTERS = 20_000;

/** A result's text: whole when short; else its start, with how much there is, Show all and Copy all. */
function LongText({ text }: { text: string }) {
  const [whole, setWhole] = useState(false);
  const long = text.length > SHOWN_CHARACTERS;
  return (
    <>
      <pre className="tool-result-text">
        <UntrustedText text={long && !whole ? text.slice(0, SHOWN_CHARACTERS) : text} />
      </pre>
      {long ? (
        <div className="row-actions tool-result-long">
          <span className="muted">
            {whole ? `All ${text.length.toLocaleString('en')} characters shown.` : `The first ${SHOWN_CHARACTERS.toLocaleString('en')} of ${text.length.toLocaleString('en')} characters.`}
            {text.length > DEFAULT_RESULT_BUDGET_CHARS ? ' The model is given its start and reads the rest only if it asks for it.' : ''}
          </span>
          {whole ? null : (
            <button type="button" className="button button-small" onClick={() => setWhole(true)}>
              Show all
            </button>
          )}
          <CopyButton label="Copy all" text={() => shownText(text)} />
        </div>
      ) : null}
    </>
  );
}

type Embedded = NonNullable<SavedContentBlock['resource']>;

/** A resource a tool result carries: its text (or bytes the server says are text and are), an image, or a count of bytes. */
function EmbeddedResource({ resource }: { resource: Embedded }) {
  // Read once, not at each render of the conversation around it.
  const text = useMemo(() => (typeof resource.text === 'string' ? resource.text : resource.blob ? blobAsText(resource.blob, resource.mimeType) : undefined), [resource]);
  return (
    <div className="embedded-resource">
      <p className="muted code-inline">
        <UntrustedText text={resource.uri} />
        {resource.mimeType ? (
          <>
            {' · '}
            <UntrustedText text={resource.mimeType} />
          </>
        ) : null}
      </p>
      {text !== undefined ? (
        <pre className="tool-result-text">
          <UntrustedText text={text} />
        </pre>
      ) : resource.blob && resource.mimeType?.startsWith('image/') ? (
        <img className="tool-result-image" alt={`Embedded ${resource.uri}`} src={`data:${resource.mimeType};base64,${resource.blob}`} />
      ) : (
        <p className="muted">[binary contents, {base64ByteCount(resource.blob ?? '')} bytes]</p>
      )}
    </div>
  );
}
