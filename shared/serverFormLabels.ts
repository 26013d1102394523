/**
 * The server editor's label for each field, by the key its request carries: the window shows them, and
 * the host words its problems with the same ones, so a message always names the field as it is seen.
 */
export const SERVER_FORM_LABELS = {
  serverId: 'Name',
  command: 'Command',
  args: 'Arguments',
  env: 'Environment',
  cwd: 'Working folder',
  url: 'Address',
  headers: 'Headers',
} as const;

/** What holds a server's name in the servers file: a server, or an entry with a mistake that must not be written over. */
export type NameHolder = 'server' | 'unreadable entry';

/** Why a name cannot be given to a new server, in the editor's words. */
export function nameTakenMessage(name: string, holder: NameHolder): string {
  return holder === 'server'
    ? `${SERVER_FORM_LABELS.serverId} "${name}" is taken by another server: choose another name.`
    : `${SERVER_FORM_LABELS.serverId} "${name}" is taken by an entry of the servers file that has a mistake: fix that entry, or choose another name.`;
}
