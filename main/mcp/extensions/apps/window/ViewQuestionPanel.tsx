import { useEffect, useRef, useState } from 'react';
import { UntrustedText } from '../../../../../renderer/ui/UntrustedText.tsx';
import { extensionOf, runsCode, sizeText } from './viewDownloads.ts';
import type { FileToSave } from './viewDownloads.ts';
import type { OpenQuestion, ViewQuestion } from './viewQuestions.ts';

/**
 * A newly shown question's yes is held back this long: a click or key meant for what was there a moment
 * before (the answer to the previous question, a double click) does not answer it.
 */
const ARMING_MS = 600;

const groupNames: Record<ViewQuestion['kind'], string> = {
  message: 'Message from the view',
  link: 'Link from the view',
  download: 'Files from the view',
  display: 'Display request from the view',
};

/** The one question a view has open, in its card: what it asks, exactly as it will happen, and yes or no. */
export function ViewQuestionPanel({ open, serverId, onAnswer }: { open: OpenQuestion; serverId: string; onAnswer(yes: boolean): void }) {
  const [armed, setArmed] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const safe = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    setArmed(false);
    panel.current?.scrollIntoView({ block: 'nearest' });
    // As a consent dialog does: the keyboard leaves the view for the safe answer, so the question is
    // where the person is, and Escape (caught here, not in the view's frame) answers it so.
    safe.current?.focus({ preventScroll: true });
    const timer = setTimeout(() => setArmed(true), ARMING_MS);
    return () => clearTimeout(timer);
  }, [open.id]);
  const { question } = open;
  const [yes, no] = answers(question);
  return (
    <div
      ref={panel}
      className="tool-view-proposal"
      role="group"
      aria-label={groupNames[question.kind]}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        onAnswer(false);
      }}
    >
      <QuestionText question={question} serverId={serverId} />
      <div className="row-actions">
        <button type="button" className="button button-small button-primary" disabled={!armed} onClick={() => onAnswer(true)}>
          {yes}
        </button>
        <button ref={safe} type="button" className="button button-small" onClick={() => onAnswer(false)}>
          {no}
        </button>
      </div>
    </div>
  );
}

function answers(question: ViewQuestion): [string, string] {
  switch (question.kind) {
    case 'message':
      return ['Send it', 'Don’t send'];
    case 'link':
      return ['Open in browser', 'Don’t open'];
    case 'download':
      return [question.files.length === 1 ? 'Save it' : 'Save them', 'Don’t save'];
    case 'display':
      return [question.mode === 'fullscreen' ? 'Show full screen' : 'Float it', 'Not now'];
  }
}

function QuestionText({ question, serverId }: { question: ViewQuestion; serverId: string }) {
  switch (question.kind) {
    case 'message':
      return (
        <>
          <p>The view asks to send this message in the chat, as you:</p>
          <blockquote className="tool-view-proposal-text">
            <UntrustedText text={question.text} />
          </blockquote>
        </>
      );
    case 'link': {
      const { address } = question;
      const unicode = address.unicodeRegistrableDomain !== address.registrableDomain ? ` (in Unicode: ${address.unicodeRegistrableDomain})` : '';
      return (
        <>
          <p>The view asks to open this address in your browser:</p>
          <p>
            <code className="tool-view-address">
              <UntrustedText text={address.href} />
            </code>
          </p>
          <p>
            It goes to <strong>{address.registrableDomain}</strong>
            {unicode}.
          </p>
          {address.warnings.map((warning) => (
            <p key={warning} role="note">
              ⚠ {warning}
            </p>
          ))}
        </>
      );
    }
    case 'download':
      return (
        <>
          <p>The view asks to save {question.files.length === 1 ? 'a file' : `${question.files.length} files`} to your computer:</p>
          <ul className="tool-view-files">
            {question.files.map((file, index) => (
              <FileLine key={index} file={file} serverId={serverId} />
            ))}
          </ul>
        </>
      );
    case 'display':
      return <p>{question.mode === 'fullscreen' ? 'The view asks to fill the window.' : 'The view asks to float in a small window in the corner of the chat.'}</p>;
  }
}

/** A file as it will be saved: its name with the last extension marked, what that is, its type and size. */
function FileLine({ file, serverId }: { file: FileToSave; serverId: string }) {
  const extension = extensionOf(file.name);
  const stem = extension ? file.name.slice(0, -extension.length - 1) : file.name;
  return (
    <li>
      <code>
        {stem}
        {extension ? <mark className="file-extension">.{extension}</mark> : null}
      </code>{' '}
      — {extension ? `ends in .${extension}` : 'no extension'}, {file.mimeType === 'application/octet-stream' ? 'of no stated type' : file.mimeType}, {sizeText(file.bytes.byteLength)}
      {runsCode(file.name) ? <strong className="file-warning"> · Opening it runs it as a program: save it only if you trust <UntrustedText text={serverId} />.</strong> : null}
    </li>
  );
}
