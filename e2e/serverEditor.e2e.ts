// Adding, editing and removing a server from the window, against a real host: the host checks the
// entry, and a new or changed server runs only after the person has seen its exact command line.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

test.use({ hostServers: {} });

test('servers: add one (started after its command line is shown), refuse a bad one, edit, remove', async ({ page, host }) => {
  const echo = fixtureCommand('echoServer');
  const stored = async () => (JSON.parse(await readFile(join(host.home, 'servers.json'), 'utf8')) as { mcpServers: Record<string, unknown> }).mcpServers;
  await page.goto(host.url);
  await page.getByRole('button', { name: 'Servers' }).click();

  await test.step('a new server is started only after its exact command line is shown', async () => {
    await page.getByRole('button', { name: 'Add server' }).click();
    const form = page.getByRole('dialog', { name: 'Add a server' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('echo');
    await form.getByRole('textbox', { name: 'Command', exact: true }).fill(echo.command);
    await form.getByRole('textbox', { name: 'Arguments (one per line)' }).fill(echo.args.join('\n'));
    await form.getByRole('button', { name: 'Save' }).click();
    const start = page.getByRole('dialog', { name: 'Start echo?' });
    await expect(start.getByLabel('Command line')).toHaveText([echo.command, ...echo.args].join(' '));
    await expect(page.getByRole('article', { name: 'echo', exact: true }).getByRole('status'), 'nothing runs before the person starts it').toHaveText('Disabled');
    await page.screenshot({ path: 'e2e/artifacts/servers-start-consent.png' });
    await start.getByRole('button', { name: 'Start server' }).click();
    const card = page.getByRole('article', { name: 'echo', exact: true });
    await expect(card.getByRole('status')).toHaveText('Ready');
    expect(Object.keys(await stored())).toEqual(['echo']);
  });

  await test.step('an entry the host cannot use is refused with the reason, beside the field', async () => {
    await page.getByRole('button', { name: 'Add server' }).click();
    const form = page.getByRole('dialog', { name: 'Add a server' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('bad');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByRole('textbox', { name: 'Command', exact: true })).toHaveAccessibleDescription(/^Command is required/);
    await form.getByRole('button', { name: 'Cancel' }).click();
    expect(Object.keys(await stored())).toEqual(['echo']);
  });

  await test.step('an edit that changes the command line asks again; keeping it off leaves it off', async () => {
    await page.getByRole('button', { name: 'Edit echo' }).click();
    const form = page.getByRole('dialog', { name: 'Edit echo' });
    await expect(form.getByRole('textbox', { name: 'Command', exact: true })).toHaveValue(echo.command);
    await form.getByRole('textbox', { name: 'Arguments (one per line)' }).fill([...echo.args, '--both-eras'].join('\n'));
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('dialog', { name: 'Start echo?' }).getByRole('button', { name: 'Keep it off' }).click();
    await expect(page.getByRole('article', { name: 'echo', exact: true }).getByRole('status')).toHaveText('Disabled');
  });

  await test.step('removing it stops it and takes its entry out of servers.json', async () => {
    await page.getByRole('button', { name: 'Remove echo' }).click();
    await page.getByRole('group', { name: 'Remove echo?' }).getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(page.getByRole('article', { name: 'echo', exact: true })).toHaveCount(0);
    await expect.poll(async () => Object.keys(await stored())).toEqual([]);
  });

  await test.step('a whole command line typed into Command is split into the command and its arguments, and the form says so', async () => {
    const whole = [echo.command, ...echo.args].join(' ');
    await page.getByRole('button', { name: 'Add server' }).click();
    const form = page.getByRole('dialog', { name: 'Add a server' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('pasted');
    const command = form.getByRole('textbox', { name: 'Command', exact: true });
    await command.fill(whole);
    await command.press('Tab');
    await expect(command).toHaveValue(echo.command);
    await expect(form.getByRole('textbox', { name: 'Arguments (one per line)' })).toHaveValue(echo.args.join('\n'));
    await expect(form.getByRole('status')).toHaveText(`Split into the command ${echo.command} and one argument, now first in Arguments below.Keep it as one command`);
    await page.screenshot({ path: 'e2e/artifacts/servers-command-line-split.png' });
    await form.getByRole('button', { name: 'Keep it as one command' }).click();
    await expect(command, 'the way back puts it as typed').toHaveValue(whole);
    await expect(form.getByRole('textbox', { name: 'Arguments (one per line)' })).toHaveValue('');
    await command.fill(`${whole} --both-eras`);
    await command.press('Enter');
    const start = page.getByRole('dialog', { name: 'Start pasted?' });
    await expect(start.getByLabel('Command line'), 'saved straight away, it is split too').toHaveText(`${whole} --both-eras`);
    await start.getByRole('button', { name: 'Keep it off' }).click();
    expect((await stored())['pasted']).toEqual({ command: echo.command, args: [...echo.args, '--both-eras'], disabled: true });
  });

  await test.step('a command that is no program on this computer is said plainly before it is started, with the one likely meant', async () => {
    await page.getByRole('button', { name: 'Add server' }).click();
    const form = page.getByRole('dialog', { name: 'Add a server' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('slip');
    await form.getByRole('textbox', { name: 'Command', exact: true }).fill('nodee');
    await form.getByRole('textbox', { name: 'Arguments (one per line)' }).fill('server.js');
    await form.getByRole('button', { name: 'Save' }).click();
    const start = page.getByRole('dialog', { name: 'Start slip?' });
    await expect(start.getByRole('alert')).toHaveText(
      'nodee is not a program on this computer (nothing of that name is on the PATH the server gets), so it cannot start as written: did you mean node? Correct the command with Edit on its card in Servers, or install the program first.',
    );
    await page.screenshot({ path: 'e2e/artifacts/servers-command-not-found.png' });
    await start.getByRole('button', { name: 'Keep it off' }).click();
  });

  await test.step('a script or a working folder that is not on this computer is said too, before it fails to start', async () => {
    await page.getByRole('button', { name: 'Add server' }).click();
    const form = page.getByRole('dialog', { name: 'Add a server' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('ghost');
    await form.getByRole('textbox', { name: 'Command', exact: true }).fill(echo.command);
    await form.getByRole('textbox', { name: 'Arguments (one per line)' }).fill('/atrium-e2e-nowhere/server.mjs');
    await form.getByRole('button', { name: 'Save' }).click();
    const start = page.getByRole('dialog', { name: 'Start ghost?' });
    await expect(start.getByRole('alert')).toHaveText('The script /atrium-e2e-nowhere/server.mjs is not on this computer, so it cannot start as written. Correct it with Edit on its card in Servers.');
    await page.screenshot({ path: 'e2e/artifacts/servers-script-not-found.png' });
    await start.getByRole('button', { name: 'Keep it off' }).click();
  });
});
