// The requests the conformance suite sends: a valid sample per phase, and
// every malformed request it can provoke an INVALID_INPUT with.
import type { RequestPhase, Vocabulary } from '../sdk/types.ts';
import type { SendOptions } from './http.ts';

export function sampleRequest(phase: RequestPhase, _vocabulary: Vocabulary): Record<string, unknown> {
  return {
    data: {
      input: 'What is the capital of France? Please answer in one sentence.',
      ...(phase === 'response' ? { output: 'The capital of France is Paris.' } : {}),
      metadata: { model_id: 'gpt-4o', session_id: 'conformance', user_id: 'conformance@example.com' },
    },
    phase,
    platform_context: {
      trace_id: 'conformance-trace',
      agent_id: 'default.conformance',
      workspace_id: 'conformance',
    },
  };
}

export interface BadInputCase {
  id: string;
  send: SendOptions;
  wantsMaxBytes?: boolean;
}

function nested(depth: number): string {
  return `{"data":{"input":"x","metadata":{"deep":${'['.repeat(depth)}${']'.repeat(depth)}}},"phase":"request"}`;
}

export function badInputCases(vocabulary: Vocabulary, oversizedBytes: number): BadInputCase[] {
  const phase = vocabulary.phases[0] ?? 'request';
  const json = (body: unknown): SendOptions => ({ body: JSON.stringify(body) });
  const input = 'hello';
  const cases: BadInputCase[] = [
    { id: 'malformed_json', send: { body: '{"data": {"input": "x"' } },
    {
      id: 'not_json',
      send: {
        body: 'input=hello&phase=request',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
    },
    { id: 'empty_body', send: { body: '' } },
    { id: 'json_array', send: json([{ data: { input }, phase }]) },
    { id: 'missing_data', send: json({ phase }) },
    { id: 'data_not_object', send: json({ data: 'hello', phase }) },
    { id: 'input_wrong_type', send: json({ data: { input: 42 }, phase }) },
    { id: 'metadata_wrong_type', send: json({ data: { input, metadata: 'x' }, phase }) },
    { id: 'model_id_wrong_type', send: json({ data: { input, metadata: { model_id: 7 } }, phase }) },
    { id: 'platform_context_wrong_type', send: json({ data: { input }, phase, platform_context: [] }) },
    {
      id: 'overrides_wrong_type',
      send: json({ data: { input }, phase, platform_context: { detection_overrides: 'x' } }),
    },
    { id: 'missing_phase', send: json({ data: { input } }) },
    { id: 'unknown_phase', send: json({ data: { input }, phase: 'audit' }) },
    { id: 'phase_wrong_type', send: json({ data: { input }, phase: 1 }) },
    {
      id: 'invalid_utf8',
      send: {
        body: Buffer.concat([
          Buffer.from('{"data":{"input":"'),
          Buffer.from([0xc3, 0x28, 0xff]),
          Buffer.from(`"},"phase":"${phase}"}`),
        ]),
      },
    },
    { id: 'deep_nesting', send: { body: nested(10_000) } },
    { id: 'oversized_declared', send: { body: Buffer.alloc(oversizedBytes, 0x20) }, wantsMaxBytes: true },
    { id: 'oversized_streamed', send: { streamBytes: oversizedBytes }, wantsMaxBytes: true },
  ];
  if (vocabulary.phases.includes('response')) {
    cases.push({ id: 'response_without_output', send: json({ data: { input }, phase: 'response' }) });
    cases.push({
      id: 'output_wrong_type',
      send: json({ data: { input, output: { text: 'x' } }, phase: 'response' }),
    });
  }
  return cases;
}
