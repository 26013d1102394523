// The owner of the tasks calls started: it takes each from the pipeline, keeps it with its conversation,
// follows its status, and when it ends has the pipeline close it (what the conversation took in, the
// audit log) and puts its end where it belongs (its call's card and the model's next request). It
// announces every change. A task whose connection ends is not dropped: a remote server's is followed
// again once the server is connected (after a restart too); a stdio server's ended with its process, and
// its card says so.

import { randomUUID } from 'node:crypto';
import { ChangeListeners } from '../../../../changeListeners.ts';
import type { CallOrigin, CallTask, TaskEnding } from '../../../../chat/turnTools.ts';
import type { StartedTaskCall, TaskFinish, TaskFollower } from '../../../../host/tools/toolCallPipeline.ts';
import type { TaskView } from '../contract/tasksContract.ts';
import type { TaskRecord, TaskStore } from '../store/taskStore.ts';
import type { TaskReference, TaskRun } from '../taskRun.ts';

/** A task that ended, for its conversation. */
export interface EndedTask {
  record: TaskRecord;
  ending: TaskEnding;
  finish: TaskFinish;
}

export interface TaskTrackerDeps {
  store: TaskStore;
  /** Follows a kept task again on its server's live session. */
  resume(serverId: string, reference: TaskReference, tool: string): Promise<TaskRun>;
  /** False for a stdio server: its tasks end with its process. */
  outlivesAtrium(serverId: string): boolean;
  isConnected(serverId: string): boolean;
  /** Closes a call that ran as a task (the pipeline's closeTask). */
  close(call: StartedTaskCall, finish: TaskFinish): TaskEnding;
  /** Saves a task's end in its call's record; returns what its conversation is to be told (none without one). */
  settle(task: EndedTask): Record<string, unknown> | undefined;
  /**
   * Gives the model what it is to be told, at its next request: saved in the conversation at once, or at
   * the next step of a turn running there; with `followUp` the model answers it at once. `saved` once it is.
   */
  deliver(conversationId: string, message: Record<string, unknown>, followUp: boolean, saved: () => void): void;
  /** Runs the end's record and the task's new state as one write. */
  transaction<T>(work: () => T): T;
  /** Writes to a server's own log. */
  log?(serverId: string, text: string): void;
  now?: () => number;
}

/** How often a server that does not answer about a kept task is asked again, and how long apart (times the try): 5 s to 30 s. */
const RESUME_ATTEMPTS = 6;
const RESUME_RETRY_MS = 5_000;

interface Followed {
  record: TaskRecord;
  /** Tries in a row to follow it again that went unanswered. */
  attempts?: number;
  /** Its server is being asked about it now. */
  resuming?: boolean;
  call: StartedTaskCall;
  run?: TaskRun;
  stopFollowing?: () => void;
  /** Why it is not followed now (its server is not connected). */
  waiting?: string;
  resolve(ending: TaskEnding): void;
  ended: Promise<TaskEnding>;
}

export class TaskTracker implements TaskFollower {
  readonly #deps: TaskTrackerDeps;
  readonly #now: () => number;
  readonly #followed = new Map<string, Followed>();
  readonly #changes = new ChangeListeners<TaskView>();
  #stopping = false;

  constructor(deps: TaskTrackerDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  /** Takes a task a call started: kept, followed to its end, its end put in its conversation. */
  follow(run: TaskRun, call: StartedTaskCall): CallTask {
    const now = this.#now();
    const record: TaskRecord = {
      key: randomUUID(),
      serverId: run.serverId,
      taskId: run.taskId,
      reference: run.reference as unknown as Record<string, unknown>,
      callId: call.callId,
      ...(call.origin.by !== 'person' ? { conversationId: call.origin.conversationId } : {}),
      origin: call.origin as unknown as Record<string, unknown>,
      tool: call.tool,
      arguments: call.arguments,
      decision: call.decision,
      outlivesAtrium: this.#deps.outlivesAtrium(run.serverId),
      status: run.state.status,
      ...(run.state.statusMessage !== undefined ? { statusMessage: run.state.statusMessage } : {}),
      followUp: false,
      startedAt: call.startedAt,
      updatedAt: now,
      landed: false,
    };
    this.#deps.store.add(record);
    const followed = this.#keep(record, call);
    this.#attach(followed, run);
    this.#tell(followed);
    return { key: record.key, serverId: record.serverId, taskId: record.taskId, outlivesAtrium: record.outlivesAtrium, ended: followed.ended };
  }

  /**
   * At start: the tasks a previous run left. A stdio server's ended with that run; a remote server's are
   * followed again once their server is connected; an end not yet put in its conversation is put there.
   */
  start(): void {
    for (const record of this.#deps.store.unfinished()) {
      if (record.endedAt !== undefined) {
        // It ended, and the process stopped before its conversation was told: it is told now.
        if (record.landing !== undefined && record.conversationId !== undefined) this.#deliver(record);
        else this.#deps.store.update({ ...record, landed: true });
        continue;
      }
      const followed = this.#keep(record, callOf(record));
      if (!record.outlivesAtrium) {
        this.#finish(followed, { kind: 'lost', message: `${record.serverId} is a local server: its process ended when Atrium stopped, and the task with it` });
        continue;
      }
      followed.waiting = `${record.serverId} is not connected yet: the task is followed again once it is`;
      if (this.#deps.isConnected(record.serverId)) void this.serverConnected(record.serverId);
    }
  }

  /** A server is connected (again): its tasks that are not followed now are followed again. */
  async serverConnected(serverId: string): Promise<void> {
    const waiting = [...this.#followed.values()].filter((followed) => followed.record.serverId === serverId && !followed.run && !followed.resuming && followed.waiting !== undefined);
    for (const followed of waiting) {
      const { record } = followed;
      followed.waiting = `asking ${serverId} about it again`;
      followed.resuming = true;
      try {
        this.#attach(followed, await this.#deps.resume(serverId, record.reference as unknown as TaskReference, record.tool.name));
        delete followed.attempts;
        this.#deps.log?.(serverId, `task ${record.taskId} is followed again`);
        this.#tell(followed);
      } catch (error) {
        this.#unanswered(followed, error as Error);
      } finally {
        delete followed.resuming;
      }
    }
  }

  /** Asking the server about a kept task failed: lost if it said it does not know it, asked again if it did not answer. */
  #unanswered(followed: Followed, error: Error): void {
    const { serverId } = followed.record;
    if (this.#stopping) return;
    if (!this.#deps.isConnected(serverId)) {
      // Its connection went meanwhile: followed again once it is back, which is no try spent.
      followed.waiting = `${serverId} is not connected: the task is followed again once it is`;
      this.#tell(followed);
      return;
    }
    followed.attempts = (followed.attempts ?? 0) + 1;
    if (answeredNo(error) || followed.attempts > RESUME_ATTEMPTS) {
      const why = answeredNo(error) ? 'no longer knows this task' : `did not answer about this task ${RESUME_ATTEMPTS + 1} times`;
      this.#finish(followed, { kind: 'lost', message: `${serverId} ${why} (${error.message})` });
      return;
    }
    // It did not answer (timed out, not reachable for a moment): asked again a little later, if it stays connected.
    followed.waiting = `${serverId} did not answer about it: asked again shortly`;
    this.#tell(followed);
    setTimeout(() => {
      if (!this.#stopping && this.#deps.isConnected(serverId)) void this.serverConnected(serverId);
    }, RESUME_RETRY_MS * followed.attempts).unref();
  }

  /** tasks/cancel to the task's server; resolves once the server acknowledged it. */
  async cancel(key: string): Promise<void> {
    const followed = this.#followed.get(key);
    if (!followed) throw new TaskNotFoundError(`there is no running task "${key}"`);
    if (!followed.run) throw new TaskNotFoundError(`${followed.record.serverId} is not connected, so its task cannot be cancelled now`);
    await followed.run.cancel();
  }

  setFollowUp(key: string, followUp: boolean): void {
    const followed = this.#followed.get(key);
    if (!followed) throw new TaskNotFoundError(`there is no running task "${key}"`);
    followed.record.followUp = followUp;
    this.#save(followed);
    this.#tell(followed);
  }

  /** The task a server's request is tied to (related-task), for its dialog and its conversation. */
  taskOf(serverId: string, taskId: string): { tool: string; conversationId?: string } | undefined {
    for (const { record } of this.#followed.values()) {
      if (record.serverId === serverId && record.taskId === taskId) return { tool: record.tool.name, ...(record.conversationId ? { conversationId: record.conversationId } : {}) };
    }
    return undefined;
  }

  /** Every running task and the latest ended ones, the newest first. */
  list(): TaskView[] {
    return this.#deps.store.list().map((record) => viewOf(record, this.#followed.get(record.key)?.waiting));
  }

  /** Keys of the tasks running now (the CLI waits for them, or cancels them on Ctrl+C). */
  running(): string[] {
    return [...this.#followed.values()].filter((followed) => followed.record.endedAt === undefined).map((followed) => followed.record.key);
  }

  /** Told of every task that starts, moves or ends, as it is now. */
  onChange(listener: (task: TaskView) => void): () => void {
    return this.#changes.add(listener);
  }

  /** Atrium quits: what its connections still follow is followed again at the next start, not ended now. */
  stop(): void {
    this.#stopping = true;
  }

  #keep(record: TaskRecord, call: StartedTaskCall): Followed {
    let resolve: (ending: TaskEnding) => void = () => undefined;
    const ended = new Promise<TaskEnding>((settle) => (resolve = settle));
    const followed: Followed = { record, call, resolve, ended };
    this.#followed.set(record.key, followed);
    return followed;
  }

  #attach(followed: Followed, run: TaskRun): void {
    followed.run = run;
    delete followed.waiting;
    followed.stopFollowing = run.onChange((state) => {
      // Its end is said once, when it is closed (#finish), with its result or reason.
      if (followed.record.endedAt !== undefined || state.status === 'completed' || state.status === 'failed' || state.status === 'cancelled') return;
      followed.record.status = state.status;
      if (state.statusMessage !== undefined) followed.record.statusMessage = state.statusMessage;
      else delete followed.record.statusMessage;
      this.#save(followed);
      this.#tell(followed);
    });
    void run.ended.then((end) => {
      followed.stopFollowing?.();
      delete followed.run;
      if (end.kind !== 'interrupted') return this.#finish(followed, end);
      if (this.#stopping) return;
      const { serverId } = followed.record;
      if (!followed.record.outlivesAtrium) return this.#finish(followed, { kind: 'lost', message: `${serverId}'s process ended, and its task with it (${end.message})` });
      followed.waiting = `${serverId} is not connected: the task is followed again once it is`;
      this.#tell(followed);
      // Its session was replaced while the server stayed (an expired HTTP session): it is followed on the new one.
      if (this.#deps.isConnected(serverId)) void this.serverConnected(serverId);
    });
  }

  #finish(followed: Followed, finish: TaskFinish): void {
    const { record } = followed;
    if (!this.#followed.has(record.key)) return;
    this.#followed.delete(record.key);
    const ending = this.#deps.close(followed.call, finish);
    record.status = finish.kind === 'completed' ? 'completed' : finish.kind;
    if (finish.kind === 'failed' || finish.kind === 'lost') record.reason = finish.message;
    if (finish.kind === 'cancelled' && finish.reason) record.reason = finish.reason;
    record.endedAt ??= this.#now();
    record.updatedAt = this.#now();
    const ended: EndedTask = { record, ending, finish };
    try {
      this.#deps.transaction(() => {
        const landing = this.#deps.settle(ended);
        if (landing !== undefined) record.landing = landing;
        else record.landed = true;
        this.#save(followed);
      });
    } catch (error) {
      // Its call's record could not take its end (the conversation was deleted meanwhile): said in the log, kept as ended.
      record.landed = true;
      this.#save(followed);
      this.#deps.log?.(record.serverId, `the end of task ${record.taskId} could not be put in its conversation: ${(error as Error).message}`);
    }
    if (!record.landed) this.#deliver(record);
    followed.resolve(ending);
    this.#tell(followed);
  }

  /** Tells its conversation (kept until that is saved, so a restart meanwhile tells it then). */
  #deliver(record: TaskRecord): void {
    const { conversationId, landing } = record;
    if (conversationId === undefined || landing === undefined) return;
    this.#deps.deliver(conversationId, landing, record.followUp, () => {
      record.landed = true;
      record.updatedAt = this.#now();
      this.#deps.store.update(record);
    });
  }

  #save({ record }: Followed): void {
    record.updatedAt = this.#now();
    this.#deps.store.update(record);
  }

  #tell(followed: Followed): void {
    this.#changes.tell(viewOf(followed.record, followed.waiting));
  }
}

/** Asked about a task Atrium does not follow (ended, or never there). */
export class TaskNotFoundError extends Error {
  readonly code = 'not_found';
}

/** The server answered the question about the task with an error (it does not know it), rather than not answering. */
function answeredNo(error: unknown): boolean {
  const kind = (error as { kind?: unknown } | undefined)?.kind;
  return kind === 'protocol' || kind === 'failed' || kind === 'not_found';
}

function callOf(record: TaskRecord): StartedTaskCall {
  return {
    tool: record.tool,
    callId: record.callId,
    origin: record.origin as unknown as CallOrigin,
    arguments: record.arguments,
    decision: record.decision as StartedTaskCall['decision'],
    startedAt: record.startedAt,
  };
}

function viewOf(record: TaskRecord, waiting: string | undefined): TaskView {
  return {
    key: record.key,
    serverId: record.serverId,
    tool: record.tool.name,
    taskId: record.taskId,
    callId: record.callId,
    ...(record.conversationId !== undefined ? { conversationId: record.conversationId } : {}),
    status: record.status,
    ...(record.statusMessage !== undefined ? { statusMessage: record.statusMessage } : {}),
    ...(waiting !== undefined && record.endedAt === undefined ? { waiting } : {}),
    outlivesAtrium: record.outlivesAtrium,
    followUp: record.followUp,
    startedAt: record.startedAt,
    updatedAt: record.updatedAt,
    ...(record.endedAt !== undefined ? { endedAt: record.endedAt } : {}),
    ...(record.reason !== undefined ? { reason: record.reason } : {}),
  };
}
