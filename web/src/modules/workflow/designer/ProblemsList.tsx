import { CheckCircleOutlined, ExclamationCircleOutlined } from '@ant-design/icons';
import { Empty, List } from 'antd';
import { useTranslation } from 'react-i18next';
import type { GraphProblem } from './graph-checks.ts';
import type { WfGraph } from './graph-model.ts';

/** Every problem of the graph; choosing one selects its node or edge. */
export function ProblemsList({ problems, graph, text, onPick }: { problems: GraphProblem[]; graph: WfGraph; text(p: GraphProblem): string; onPick(p: GraphProblem): void }) {
  const { t } = useTranslation('workflow');
  if (problems.length === 0)
    return <Empty image={<CheckCircleOutlined style={{ fontSize: 40, color: '#52c41a' }} />} description={t('designer.noProblems')} data-testid="wf-no-problems" />;
  const where = (p: GraphProblem) => {
    if (p.edgeId) {
      const e = graph.edges.find((x) => x.id === p.edgeId);
      const from = graph.nodes.find((n) => n.id === e?.source)?.name;
      const to = graph.nodes.find((n) => n.id === e?.target)?.name;
      return e ? `${from ?? '?'} → ${to ?? '?'}` : null;
    }
    return p.nodeId ? (graph.nodes.find((n) => n.id === p.nodeId)?.name ?? p.nodeId) : null;
  };
  return (
    <List
      size="small"
      dataSource={problems}
      data-testid="wf-problems"
      renderItem={(p, i) => (
        <List.Item key={i} className="wf-problem-item">
          <button type="button" className="wf-problem-button" onClick={() => onPick(p)}>
            <ExclamationCircleOutlined style={{ color: '#ff4d4f' }} />
            <span>
              {where(p) ? <b>{where(p)}：</b> : null}
              {text(p)}
            </span>
          </button>
        </List.Item>
      )}
    />
  );
}
