// Atrium's own schemas are compiled at run time without the meta-schema check (ownSchemas.ts says why);
// this is that check, for every one of them, strictly: a malformed schema fails here, never for a person.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { requestNames, requestParamSchemas } from '../shared/contract.ts';
import { elicitationOutcomeSchema, pendingAnswerSchema, samplingRequestOutcomeSchema, samplingResultOutcomeSchema, toolApprovalOutcomeSchema } from '../shared/pendingPayloads.ts';
import { serverEntrySchema } from './mcp/config/serverConfig.ts';
import { ownKeywords, ownSchemaValidator } from './ownSchemas.ts';
import { providerSettingsSchema } from './store/settingsStore.ts';

const ownSchemas: Record<string, object> = {
  'servers.json entry': serverEntrySchema,
  'providers.json': providerSettingsSchema,
  'tool approval answer': toolApprovalOutcomeSchema,
  'sampling request answer': samplingRequestOutcomeSchema,
  'sampling result answer': samplingResultOutcomeSchema,
  'elicitation answer': elicitationOutcomeSchema,
  'pending answer': pendingAnswerSchema,
  ...Object.fromEntries(requestNames.map((name) => [`${name} params`, requestParamSchemas[name]])),
};

test('every schema of Atrium’s own is valid against the JSON Schema meta-schema, under strict mode', () => {
  const checking = new Ajv({ strict: true, validateSchema: true, allErrors: true });
  checking.addVocabulary([...ownKeywords]);
  for (const [what, schema] of Object.entries(ownSchemas)) {
    assert.equal(checking.validateSchema(schema), true, `${what}: ${checking.errorsText(checking.errors)}`);
    assert.doesNotThrow(() => checking.compile(schema), what);
  }
  assert.ok(Object.keys(ownSchemas).length > requestNames.length);
});

test('a validator compiles at its first call and reports that call’s errors', () => {
  const validate = ownSchemaValidator({ type: 'object', properties: { port: { type: 'integer' } }, required: ['port'] }, { allErrors: true, strict: true });
  const beforeAnyCall = validate.errors;
  assert.equal(beforeAnyCall, undefined);
  assert.equal(validate({ port: 'eighty' }), false);
  assert.equal(validate.errors?.[0]?.instancePath, '/port');
  assert.equal(validate({ port: 80 }), true);
  assert.equal(validate.errors, null);
});

test('a malformed schema of our own fails at its first use, loudly, under strict mode', () => {
  const validate = ownSchemaValidator({ type: 'object', propertees: {} }, { allErrors: true, strict: true });
  assert.throws(() => validate({}), /unknown keyword: "propertees"/);
});
