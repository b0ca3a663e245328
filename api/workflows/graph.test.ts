import { describe, expect, it } from 'vitest';
import {
  findCycle,
  graphProblems,
  requireValidGraph,
  type WorkflowGraph,
  type WorkflowNode,
} from './graph.ts';

const spec = { owners: [{ subject: 'alice@example.com', role: 'Owner' }], model: { id: 'gpt-test' } };
const node = (name: string, agent = `agent-${name}`): WorkflowNode => ({ name, agent, spec });
const graph = (names: string[], edges: [string, string][] = []): WorkflowGraph => ({
  nodes: names.map((n) => node(n)),
  edges: edges.map(([from, to]) => ({ from, to })),
});

describe('graphProblems', () => {
  it('accepts a two-node delegation and a diamond', () => {
    expect(graphProblems('ws', graph(['a', 'b'], [['a', 'b']]))).toEqual([]);
    const diamond = graph(
      ['a', 'b', 'c', 'd'],
      [
        ['a', 'b'],
        ['a', 'c'],
        ['b', 'd'],
        ['c', 'd'],
      ],
    );
    expect(graphProblems('ws', diamond)).toEqual([]);
  });

  it('names unknown nodes, self-edges and duplicate edges', () => {
    const g = graph(
      ['a', 'b'],
      [
        ['a', 'x'],
        ['b', 'b'],
        ['a', 'b'],
        ['a', 'b'],
      ],
    );
    expect(graphProblems('ws', g)).toEqual([
      'edges[0]: unknown node "x"',
      'edges[1]: node "b" delegates to itself',
      'edges: a -> b appears twice',
    ]);
  });

  it('names duplicate nodes and an agent shared by two nodes', () => {
    const g: WorkflowGraph = { nodes: [node('a'), node('a', 'other'), node('c', 'agent-a')] };
    expect(graphProblems('ws', g)).toEqual([
      'nodes: node "a" appears twice',
      'nodes: agent "agent-a" is the agent of two nodes',
    ]);
  });

  it('refuses a delegation cycle, naming it', () => {
    const g = graph(
      ['a', 'b', 'c'],
      [
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
      ],
    );
    expect(graphProblems('ws', g)).toEqual(['edges: delegation cycle a -> b -> c -> a']);
  });

  it('refuses an empty graph and graphs over the size limits', () => {
    expect(graphProblems('ws', { nodes: [] })).toEqual(['nodes: a workflow needs at least one node']);
    const big = graph(Array.from({ length: 65 }, (_, i) => `n${i}`));
    expect(graphProblems('ws', big)).toEqual(['nodes: 65 nodes, at most 64']);
    const edges = Array.from({ length: 257 }, (): [string, string] => ['a', 'b']);
    expect(graphProblems('ws', graph(['a', 'b'], edges))).toEqual(['edges: 257 edges, at most 256']);
  });

  it('checks each node’s agent spec: schema and an Owner', () => {
    const g: WorkflowGraph = {
      nodes: [
        {
          name: 'a',
          agent: 'x',
          spec: { owners: [{ subject: 'bob@example.com', role: 'Viewer' }], model: { id: 'm' } },
        },
        { name: 'b', agent: 'y', spec: { ...spec, auditMode: 'loud' } },
        { name: 'c', agent: 'z' },
      ],
    };
    const problems = graphProblems('ws', g);
    expect(problems[0]).toBe('nodes.a.spec.owners: needs at least one entry with role Owner');
    expect(problems[1]).toMatch(/^nodes\.b\/spec\/auditMode: /);
    expect(problems[2]).toBe('nodes.c.spec: the agent spec is required');
  });

  it('requireValidGraph throws 422 invalid_graph with every problem', () => {
    expect(() =>
      requireValidGraph(
        'ws',
        graph(
          ['a'],
          [
            ['a', 'a'],
            ['a', 'q'],
          ],
        ),
      ),
    ).toThrow(
      expect.objectContaining({
        status: 422,
        code: 'invalid_graph',
        detail: 'edges[0]: node "a" delegates to itself; edges[1]: unknown node "q"',
      }),
    );
  });
});

describe('findCycle', () => {
  it('finds none in a DAG and one through a back edge', () => {
    expect(
      findCycle(
        graph(
          ['a', 'b', 'c'],
          [
            ['a', 'b'],
            ['a', 'c'],
            ['b', 'c'],
          ],
        ),
      ),
    ).toBeUndefined();
    expect(
      findCycle(
        graph(
          ['a', 'b', 'c'],
          [
            ['a', 'b'],
            ['c', 'b'],
            ['b', 'c'],
          ],
        ),
      ),
    ).toEqual(['b', 'c', 'b']);
  });
});
