import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReadResourceResult } from '../../../shared/contract.ts';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { resourceKey } from '../../store/catalogSlice.ts';
import { conversationKey } from '../../store/chatSlice.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { MarkdownText } from '../../ui/MarkdownText.tsx';
import { base64ByteCount, blobAsText } from '../../../shared/blobText.ts';

/** One item of a resource's contents, as the server sent it (text or a base64 blob; untrusted). */
type Contents = ReadResourceResult['contents'][number];

/** One resource read and shown by its type; subscribe to see it change; attach it to the next message. */
export function ResourcePreview({ serverId, uri, name }: { serverId: string; uri: string; name: string }) {
  const api = useAtriumApi();
  const attach = useAtriumStore((state) => state.attach);
  const showView = useAtriumStore((state) => state.showView);
  const requestComposerFocus = useAtriumStore((state) => state.requestComposerFocus);
  const [contents, setContents] = useState<Contents[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [subscribed, setSubscribed] = useState(false);
  const [updatedAt, setUpdatedAt] = useState<number | null>(null);

  const read = useCallback(async () => {
    setError(null);
    try {
      const result = await api.readResource({ serverId, uri });
      setContents(result.contents);
      setError(null);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }, [api, serverId, uri]);

  // Read when shown, and again each time the server says the resource changed (the store counts its updates).
  const version = useAtriumStore((state) => state.resourceVersions[resourceKey(serverId, uri)] ?? 0);
  const firstVersion = useRef(version);
  useEffect(() => {
    if (version !== firstVersion.current) setUpdatedAt(Date.now());
    void read();
  }, [read, version]);

  // Leaving the resource ends the subscription the person started here.
  useEffect(() => {
    if (!subscribed) return;
    return () => void api.unsubscribeResource({ serverId, uri }).catch(() => undefined);
  }, [api, serverId, subscribed, uri]);

  return (
    <article className="resource-preview" aria-label={`Resource ${name}`}>
      <header className="roots-head">
        <h2>
          <UntrustedText text={name} />
        </h2>
        <button
          type="button"
          className="button"
          onClick={() => {
            const toggle = subscribed ? api.unsubscribeResource({ serverId, uri }) : api.subscribeResource({ serverId, uri });
            toggle.then(
              () => setSubscribed(!subscribed),
              (failure: unknown) => setError(errorMessage(failure)),
            );
          }}
        >
          {subscribed ? 'Stop watching' : 'Watch for changes'}
        </button>
        {/* Only what could be read is attached: the message would otherwise fail on it when sent. */}
        <button
          type="button"
          className="button button-primary"
          disabled={contents === null}
          onClick={() => {
            // To the conversation the Chat view shows, where the person goes next.
            attach(conversationKey(useAtriumStore.getState().selectedConversationId), { serverId, uri, name });
            showView('chat');
            // The next message is written at once: the cursor waits in its box.
            requestComposerFocus();
          }}
        >
          Attach to next message
        </button>
      </header>
      <p className="muted code-inline">
        <UntrustedText text={uri} />
      </p>
      {updatedAt ? (
        <p className="muted" role="status">
          Updated by the server at {new Date(updatedAt).toLocaleTimeString()}
        </p>
      ) : null}
      {error ? (
        <div className="consent-problem" role="alert">
          <p>{error}</p>
          {contents === null ? (
            <button type="button" className="button" onClick={() => void read()}>
              Try again
            </button>
          ) : null}
        </div>
      ) : null}
      {contents === null ? error ? null : <p className="muted">Reading…</p> : contents.map((item, index) => <ContentsView key={index} item={item} />)}
    </article>
  );
}

function ContentsView({ item }: { item: Contents }) {
  const type = item.mimeType ?? '';
  if ('text' in item) {
    if (type === 'text/markdown') return <MarkdownText text={item.text} />;
    if (type.includes('json')) {
      let pretty = item.text;
      try {
        pretty = JSON.stringify(JSON.parse(item.text), null, 2);
      } catch {
        // Shown as it came.
      }
      return (
        <pre className="code-block resource-text">
          <UntrustedText text={pretty} />
        </pre>
      );
    }
    return (
      <pre className="code-block resource-text">
        <UntrustedText text={item.text} />
      </pre>
    );
  }
  if ('blob' in item) {
    if (type.startsWith('image/') && type !== 'image/svg+xml') return <img className="message-image" alt={`Contents of ${item.uri}`} src={`data:${type};base64,${item.blob}`} />;
    const text = blobAsText(item.blob, type);
    if (text !== undefined) {
      return (
        <>
          <ContentsView item={{ uri: item.uri, mimeType: type, text }} />
          <BlobDownload item={item} />
        </>
      );
    }
    return <BlobDownload item={item} />;
  }
  return <p className="muted">(empty)</p>;
}

/** Binary contents are never shown inline: they are offered as a file to save. */
function BlobDownload({ item }: { item: Extract<Contents, { blob: string }> }) {
  const [href, setHref] = useState<string | null>(null);
  useEffect(() => {
    const bytes = Uint8Array.from(atob(item.blob), (c) => c.charCodeAt(0));
    const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
    setHref(url);
    return () => URL.revokeObjectURL(url);
  }, [item.blob]);
  const size = base64ByteCount(item.blob);
  const fileName = item.uri.split('/').filter(Boolean).at(-1) ?? 'resource';
  return (
    <p>
      Binary contents (<UntrustedText text={item.mimeType ?? 'unknown type'} />, {size} bytes).{' '}
      {href ? (
        <a href={href} download={fileName}>
          Save as a file
        </a>
      ) : null}
    </p>
  );
}
