import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CcTasksTab } from './CcTasksTab.tsx';
import { DoneTasksTab } from './DoneTasksTab.tsx';
import { StartedInstancesTab } from './StartedInstancesTab.tsx';
import './i18n.ts';

const TABS = ['done', 'started', 'cc'] as const;
type Tab = (typeof TABS)[number];

/**
 * `/flows/completedTasks` (issue 14): tasks I acted on (with take back), the flows I started (with
 * their progress and withdraw) and the copies sent to me (read / unread). `?tab=` keeps the tab
 * across reloads and links.
 */
export default function CompletedTasksPage() {
  const { t } = useTranslation('workflowTasks');
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab: Tab = (TABS as readonly string[]).includes(asked ?? '') ? (asked as Tab) : 'done';
  return (
    <Card size="small" title={t('completedTitle')}>
      <Tabs
        activeKey={tab}
        destroyOnHidden
        onChange={(key) => setParams({ tab: key }, { replace: true })}
        items={[
          { key: 'done', label: <span data-testid="tab-done">{t('tabs.done')}</span>, children: <DoneTasksTab /> },
          { key: 'started', label: <span data-testid="tab-started">{t('tabs.started')}</span>, children: <StartedInstancesTab /> },
          { key: 'cc', label: <span data-testid="tab-cc">{t('tabs.cc')}</span>, children: <CcTasksTab /> },
        ]}
      />
    </Card>
  );
}
