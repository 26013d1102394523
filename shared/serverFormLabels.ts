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
