import { describe, expect, it } from 'vitest';
import { imageConfigProblems, imageFacts } from './image-config.ts';

const LABELS = {
  'io.platform.auditor': 'true',
  'io.platform.schema_version': '2.0',
  'io.platform.phase': 'request',
  'io.platform.interfaces': 'health,claims,vocabulary',
};

describe('an OCI image configuration', () => {
  it('passes with the four labels and a non-root user', () => {
    expect(
      imageConfigProblems({ architecture: 'amd64', config: { User: '1000:1000', Labels: LABELS } }),
    ).toEqual([]);
  });

  it('is read from docker inspect output too', () => {
    expect(imageFacts([{ Config: { User: 'app', Labels: LABELS } }])).toEqual({
      labels: LABELS,
      user: 'app',
    });
  });

  it('names each missing or wrong label and a root user', () => {
    const problems = imageConfigProblems({
      config: {
        User: '0',
        Labels: { ...LABELS, 'io.platform.phase': 'sometimes', 'io.platform.auditor': undefined },
      },
    });
    expect(problems).toEqual([
      'label io.platform.auditor is missing',
      'label io.platform.phase="sometimes" is not valid',
      'the image runs as 0',
    ]);
  });

  it('treats no User as root', () => {
    expect(imageConfigProblems({ config: { Labels: LABELS } })).toEqual(['the image runs as root (no USER)']);
  });

  it('refuses JSON that is not an image configuration', () => {
    expect(imageConfigProblems({ hello: 'world' })).toEqual([
      'not an OCI image configuration (no config object with Labels and User)',
    ]);
    expect(imageConfigProblems('x')).toHaveLength(1);
  });
});
