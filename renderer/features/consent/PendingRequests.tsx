import { useAtriumApi } from '../../api/useAtriumApi.ts';
import type { PendingAnswer, PendingKind } from '../../../shared/pendingPayloads.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { RequestConversationContext } from '../../ui/RequestConversation.tsx';
import { ElicitationDialog } from './ElicitationDialog.tsx';
import { SamplingDialog } from './SamplingDialog.tsx';
import { ToolApprovalDialog } from './ToolApprovalDialog.tsx';
import { QuestionTaskContext } from '../../../main/mcp/extensions/tasks/window/TaskQuestionLabel.tsx';
import { SkillQuestionDialog } from '../../../main/mcp/extensions/skills/window/SkillQuestionDialog.tsx';

const requestName: Record<PendingKind, string> = {
  tool_approval: 'approval request',
  elicitation: 'request for information',
  sampling: 'request to use your model',
  skill: 'question about a skill',
};

/**
 * The oldest request waiting for the person, as its dialog; the rest queue behind it (their count is
 * shown). A request withdrawn while shown (its server went away, the turn was cancelled) closes with a
 * notice saying why.
 */
export function PendingRequests() {
  const api = useAtriumApi();
  const pending = useAtriumStore((state) => state.pending);
  const withdrawn = useAtriumStore((state) => state.withdrawn);
  const dismissWithdrawn = useAtriumStore((state) => state.dismissWithdrawn);
  const record = pending[0];
  const forConversation = useElsewhereConversation(record?.conversationId);
  const respond = (outcome: PendingAnswer) => api.respondPending({ id: record?.id ?? '', outcome }).then(() => undefined);
  const quiet = (outcome: PendingAnswer) => void respond(outcome).catch(() => undefined);

  return (
    <>
      {/* Always there, so a screen reader already watches it when a notice arrives. */}
      <ul className="notices" aria-label="Notices" aria-live="polite" aria-relevant="additions">
        {withdrawn.map((notice) => (
          <li key={notice.id} className="notice">
            The {requestName[notice.kind]} from <UntrustedText text={notice.serverId} /> was withdrawn: <UntrustedText text={notice.reason} />.
            <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismissWithdrawn(notice.id)}>
              ×
            </button>
          </li>
        ))}
      </ul>
      {pending.length > 1 ? (
        <p className="pending-count" role="status">
          {pending.length - 1} more request{pending.length > 2 ? 's' : ''} waiting
        </p>
      ) : null}
      {/* A task's question names the task in its dialog. */}
      <RequestConversationContext.Provider value={forConversation}>
      <QuestionTaskContext.Provider value={record?.task}>
      {record?.kind === 'tool_approval' ? <ToolApprovalDialog key={record.id} record={record} answer={quiet} /> : null}
      {record?.kind === 'elicitation' ? (
        <ElicitationDialog key={record.id} record={record} answer={respond} openUrl={(url) => window.open(url, '_blank', 'noopener,noreferrer')} />
      ) : null}
      {record?.kind === 'sampling' ? <SamplingDialog key={record.id} record={record} answer={respond} /> : null}
      {record?.kind === 'skill' ? <SkillQuestionDialog key={record.id} record={record} answer={quiet} /> : null}
      </QuestionTaskContext.Provider>
      </RequestConversationContext.Provider>
    </>
  );
}

/** The request's conversation, with a way to show it, while another one (or another view) is on screen. */
function useElsewhereConversation(conversationId: string | undefined): { title: string; show(): void } | undefined {
  const onScreen = useAtriumStore((state) => (state.view === 'chat' ? state.selectedConversationId : null));
  const title = useAtriumStore((state) => (conversationId === undefined ? undefined : state.conversations.find((c) => c.id === conversationId)?.title));
  const showConversation = useAtriumStore((state) => state.showConversation);
  if (conversationId === undefined || title === undefined || conversationId === onScreen) return undefined;
  return { title, show: () => showConversation(conversationId) };
}
