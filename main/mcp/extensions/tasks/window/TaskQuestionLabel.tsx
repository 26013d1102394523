import { createContext, useContext } from 'react';
import { UntrustedText } from '../../../../../renderer/ui/UntrustedText.tsx';

/** The task a server's question is asked for, given to the dialog that shows it. */
export const QuestionTaskContext = createContext<{ taskId: string; tool: string } | undefined>(undefined);

/** In a question's dialog: the task that asks it (a task's question may come long after its turn). */
export function TaskQuestionLabel() {
  const task = useContext(QuestionTaskContext);
  if (!task) return null;
  return (
    <p className="consent-task">
      {/* Not its id: the server's opaque name for it tells the person nothing. */}
      For the task of <UntrustedText className="tool-call-name" text={task.tool} />, which runs on while you chat.
    </p>
  );
}
