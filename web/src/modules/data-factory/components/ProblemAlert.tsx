import { Alert } from 'antd';

export type Problem = { title: string; messages: string[] };

/** Why a save was refused: a title and the server's messages, one a line. */
export function ProblemAlert({ problem, testId }: { problem: Problem | null; testId: string }) {
  if (!problem) return null;
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 12 }}
      title={problem.title}
      description={problem.messages.length ? problem.messages.map((m, i) => <div key={i}>{m}</div>) : undefined}
      data-testid={testId}
    />
  );
}
