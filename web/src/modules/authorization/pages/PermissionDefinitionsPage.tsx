import { AppstoreAddOutlined, DeleteOutlined, EditOutlined, LockOutlined, PlusOutlined } from '@ant-design/icons';
import { Badge, Button, Card, Col, Input, List, Popconfirm, Row, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { TPermissionDefinition, TPermissionDefinitionGroup } from '@tessera/core/contracts/authorization';
import { P } from '@tessera/core/contracts/permissions';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Auth, useAccess } from '../../../shared/components/Auth.tsx';
import { pickText } from '../../../shared/components/LocalizedTextInput.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { type DefinitionQuery, useDefinitionGroups, useDefinitions, useDeleteDefinition } from '../api/permission-definitions.ts';
import { DefinitionFormModal } from '../components/DefinitionFormModal.tsx';
import { PagePermissionsModal } from '../components/PagePermissionsModal.tsx';
import '../i18n.ts';

/** The "all groups" entry at the top of the group list. */
const ALL_GROUPS = { name: '' };

/** /design/authority: the permission codes by group; designers add the codes of their business pages. */
export default function PermissionDefinitionsPage() {
  const { t, i18n } = useTranslation('authorization');
  const canManage = useAccess(P.PermissionDefinitionsManage);
  const groups = useDefinitionGroups();
  const [group, setGroup] = useState<string | undefined>();
  const [groupSearch, setGroupSearch] = useState('');
  const [filter, setFilter] = useState('');
  const deferredFilter = useDeferredValue(filter.trim());
  const [paging, setPaging] = useState({ current: 1, pageSize: 20 });
  const [sorting, setSorting] = useState<string | undefined>();
  const query: DefinitionQuery = {
    SkipCount: (paging.current - 1) * paging.pageSize,
    MaxResultCount: paging.pageSize,
    Sorting: sorting,
    Filter: deferredFilter || undefined,
    GroupName: group,
  };
  const definitions = useDefinitions(query);
  const groupDefinitions = useDefinitions({ SkipCount: 0, MaxResultCount: 1000, GroupName: group });
  const remove = useDeleteDefinition();
  const [editing, setEditing] = useState<TPermissionDefinition | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [pageOpen, setPageOpen] = useState(false);

  const groupList = useMemo(() => {
    const needle = groupSearch.trim().toLowerCase();
    return (groups.data?.items ?? []).filter(
      (g) => !needle || g.name.toLowerCase().includes(needle) || pickText(g.displayName, i18n.language).toLowerCase().includes(needle),
    );
  }, [groups.data, groupSearch, i18n.language]);
  const total = (groups.data?.items ?? []).reduce((n, g) => n + g.count, 0);
  const currentGroup = groups.data?.items.find((g) => g.name === group);
  const pickGroup = (name: string | undefined) => {
    setGroup(name);
    setPaging((p) => ({ ...p, current: 1 }));
  };

  const kind = (d: TPermissionDefinition) =>
    d.isSystem ? <Tag>{t('definitions.kind.system')}</Tag> : d.groupName === 'Biz.Menu' ? <Tag color="blue">{t('definitions.kind.menu')}</Tag> : <Tag color="gold">{t('definitions.kind.designer')}</Tag>;

  const groupItem = (g: TPermissionDefinitionGroup | null) => {
    const active = (g?.name ?? undefined) === group;
    return (
      <List.Item
        role="button"
        tabIndex={0}
        aria-pressed={active}
        onClick={() => pickGroup(g?.name)}
        onKeyDown={(e) => e.key === 'Enter' && pickGroup(g?.name)}
        style={{ cursor: 'pointer', paddingInline: 8, borderRadius: 6, background: active ? 'rgba(81, 214, 169, 0.16)' : undefined }}
      >
        <Space direction="vertical" size={0} style={{ minWidth: 0 }}>
          <Typography.Text ellipsis>{g ? pickText(g.displayName, i18n.language) || g.name : t('definitions.allGroups')}</Typography.Text>
          {g && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis>
              {g.isSystem ? <LockOutlined /> : null} {g.name}
            </Typography.Text>
          )}
        </Space>
        <Badge count={g ? g.count : total} color="#8c8c8c" overflowCount={9999} />
      </List.Item>
    );
  };

  return (
    <Row gutter={[16, 16]} wrap={false} className="master-detail" style={{ alignItems: 'flex-start' }}>
      <Col flex="300px">
        <Card size="small" title={t('definitions.groups')}>
          <Input.Search allowClear placeholder={t('definitions.searchGroups')} value={groupSearch} onChange={(e) => setGroupSearch(e.target.value)} style={{ marginBottom: 8 }} />
          <List<TPermissionDefinitionGroup | typeof ALL_GROUPS>
            size="small"
            rowKey="name"
            loading={groups.isLoading}
            dataSource={[ALL_GROUPS, ...groupList]}
            renderItem={(g) => groupItem(g === ALL_GROUPS ? null : (g as TPermissionDefinitionGroup))}
            style={{ maxHeight: 'calc(100vh - 260px)', overflow: 'auto' }}
          />
        </Card>
      </Col>
      <Col flex="auto" style={{ minWidth: 0 }}>
        <Card
          size="small"
          title={currentGroup ? pickText(currentGroup.displayName, i18n.language) : t('definitions.title')}
          extra={
            <Auth code={P.PermissionDefinitionsManage}>
              <Space>
                <Button icon={<AppstoreAddOutlined />} onClick={() => setPageOpen(true)}>
                  {t('definitions.pagePermissions')}
                </Button>
                <Button
                  type="primary"
                  icon={<PlusOutlined />}
                  onClick={() => {
                    setEditing(null);
                    setFormOpen(true);
                  }}
                >
                  {t('definitions.create')}
                </Button>
              </Space>
            </Auth>
          }
        >
          <Input.Search
            allowClear
            placeholder={t('definitions.search')}
            style={{ width: 320, maxWidth: '100%', marginBottom: 12 }}
            value={filter}
            onChange={(e) => {
              setFilter(e.target.value);
              setPaging((p) => ({ ...p, current: 1 }));
            }}
          />
          <Table<TPermissionDefinition>
            size="small"
            rowKey="name"
            loading={definitions.isFetching}
            dataSource={definitions.data?.items ?? []}
            locale={{ emptyText: t('definitions.empty') }}
            pagination={{ ...paging, total: definitions.data?.totalCount ?? 0, showSizeChanger: true, showTotal: (n) => t('total', { count: n }) }}
            onChange={(p, _f, sorter) => {
              setPaging({ current: p.current ?? 1, pageSize: p.pageSize ?? 20 });
              const s = Array.isArray(sorter) ? sorter[0] : sorter;
              setSorting(s?.order ? `${s.field === 'groupName' ? 'groupName' : 'name'} ${s.order === 'descend' ? 'desc' : 'asc'}` : undefined);
            }}
            columns={[
              { title: t('definitions.displayName'), key: 'displayName', render: (_, d) => pickText(d.displayName, i18n.language) || d.name },
              { title: t('definitions.code'), dataIndex: 'name', sorter: true, render: (v: string) => <Typography.Text code copyable>{v}</Typography.Text> },
              ...(group ? [] : [{ title: t('definitions.group'), dataIndex: 'groupName', sorter: true, render: (_: unknown, d: TPermissionDefinition) => pickText(d.groupDisplayName, i18n.language) || d.groupName }]),
              { title: t('definitions.parent'), dataIndex: 'parentName', render: (v: string | null) => (v ? <Typography.Text type="secondary">{v}</Typography.Text> : '—') },
              { title: t('definitions.type'), key: 'kind', width: 110, render: (_, d) => kind(d) },
              ...(canManage
                ? [
                    {
                      title: t('actions'),
                      key: 'actions',
                      width: 130,
                      render: (_: unknown, d: TPermissionDefinition) =>
                        d.isReadOnly ? (
                          <Tooltip title={d.isSystem ? t('definitions.systemReadOnly') : t('definitions.menuReadOnly')}>
                            <LockOutlined style={{ color: '#999' }} />
                          </Tooltip>
                        ) : (
                          <Space size={0}>
                            <Button
                              type="link"
                              size="small"
                              icon={<EditOutlined />}
                              onClick={() => {
                                setEditing(d);
                                setFormOpen(true);
                              }}
                            >
                              {t('edit')}
                            </Button>
                            <Popconfirm
                              title={t('confirmDelete')}
                              description={t('definitions.deleteHint')}
                              onConfirm={async () => {
                                await remove.mutateAsync(d.name);
                                feedback.message?.success(t('deleted'));
                              }}
                            >
                              <Button type="link" size="small" danger icon={<DeleteOutlined />}>
                                {t('delete')}
                              </Button>
                            </Popconfirm>
                          </Space>
                        ),
                    },
                  ]
                : []),
            ]}
          />
        </Card>
      </Col>
      <DefinitionFormModal
        open={formOpen}
        editing={editing}
        groups={groups.data?.items ?? []}
        siblings={groupDefinitions.data?.items ?? []}
        defaultGroup={currentGroup}
        onClose={() => setFormOpen(false)}
      />
      <PagePermissionsModal
        open={pageOpen}
        onClose={(createdGroup) => {
          setPageOpen(false);
          if (createdGroup) pickGroup(createdGroup);
        }}
      />
    </Row>
  );
}
