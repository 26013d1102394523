// What `atrium skills` and `atrium skill` print: each server's skills (from their listing alone, nothing
// of them read), and one skill's SKILL.md read and verified. Everything in them came from a server and is
// shown through `visible`, so it cannot rewrite the terminal.

import type { ServerSkillList, ShownSkill, SkillSummary } from '../../shared/contract.ts';
import { visible } from './formatOutput.ts';

export function formatSkills(lists: readonly ServerSkillList[]): string {
  const offering = lists.filter((list) => list.offered || list.skills.length > 0 || list.error);
  if (offering.length === 0) return 'No server offers skills.';
  return offering
    .map((list) => {
      const head = `${visible(list.serverId)}: ${list.skills.length} skill${list.skills.length === 1 ? '' : 's'}${list.error ? ` (not listed now: ${visible(list.error)})` : ''}`;
      const refused = list.refusedEntries.map((entry) => `  refused entry ${visible(entry.uri ?? '')}: ${visible(entry.reason)}`);
      return [head, ...list.skills.map(skillLines), ...refused].join('\n');
    })
    .join('\n\n');
}

function skillLines(skill: SkillSummary): string {
  const files = skill.files === 'dynamic' ? 'files made on demand' : `${skill.files.length} file${skill.files.length === 1 ? '' : 's'}, ${skill.totalBytes.toLocaleString('en')} bytes`;
  const lines = [`  ${visible(skill.name)}  ${visible(skill.uri)}  (${files})`, `    ${visible(skill.description)}`, `    ${standing(skill)}`];
  if (skill.sharedName) lines.push('    another skill has this name: tell them apart by server and URI');
  if (skill.allowedTools.length > 0) lines.push(`    allowed-tools asks for ${visible(skill.allowedTools.join(', '))} (granted only if approved when used)`);
  return lines.join('\n');
}

function standing(skill: SkillSummary): string {
  if (skill.refused) return `Atrium will not load it: ${visible(skill.refused)}`;
  switch (skill.approval.kind) {
    case 'not-asked':
      return 'not used yet: its first use asks';
    case 'approved':
      return `approved${skill.approval.toolsGranted.length > 0 ? `, with ${visible(skill.approval.toolsGranted.join(', '))} allowed without asking` : ''}`;
    case 'changed': {
      const { added, removed, changed } = skill.approval.change;
      const what = [...added.map((p) => `added ${p}`), ...removed.map((p) => `removed ${p}`), ...changed.map((p) => `changed ${p}`)];
      return `changed since approved (${visible(what.join(', '))}): its next use asks again`;
    }
  }
}

export function formatShownSkill({ skill, text }: ShownSkill): string {
  const files = skill.files === 'dynamic' ? [] : skill.files;
  return [
    `${visible(skill.name)} of ${visible(skill.serverId)} (${visible(skill.uri)}): SKILL.md matches the size, digest and frontmatter its server listed`,
    `files: ${files.map((file) => `${visible(file.path)} (${file.size.toLocaleString('en')} bytes)`).join(', ')}`,
    '',
    visible(text),
  ].join('\n');
}
