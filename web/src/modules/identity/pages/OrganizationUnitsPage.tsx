import { ApartmentOutlined, DeleteOutlined, EditOutlined, MoreOutlined, PlusOutlined, ReloadOutlined, SafetyCertificateOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Card, Col, Descriptions, Dropdown, Empty, Input, Row, Space, Spin, Tag, Tree, Typography } from 'antd';
import type { MenuProps, TreeProps } from 'antd';
import type { TOrganizationUnitNode } from '@tessera/core/contracts/identity';
import { P } from '@tessera/core/contracts/permissions';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { useAccessChecker } from '../../../shared/components/Auth.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useDeleteUnit, useUnitTree, useUpdateUnit } from '../api/organization-units.ts';
import { PermissionsDrawer, type PermissionsTarget } from '../components/PermissionsDrawer.tsx';
import { UnitFormModal, type UnitFormTarget } from '../components/UnitFormModal.tsx';
import { UnitMembersPanel } from '../components/UnitMembersPanel.tsx';
import '../i18n.ts';

interface Indexed {
  byId: Map<string, TOrganizationUnitNode>;
  /** Every unit's descendants (for the cascade confirmation's counts). */
  subtree(id: string): TOrganizationUnitNode[];
}

function index(roots: TOrganizationUnitNode[]): Indexed {
  const byId = new Map<string, TOrganizationUnitNode>();
  const walk = (list: TOrganizationUnitNode[]) => list.forEach((u) => (byId.set(u.id, u), walk(u.children)));
  walk(roots);
  const subtree = (id: string) => {
    const out: TOrganizationUnitNode[] = [];
    const visit = (u: TOrganizationUnitNode) => u.children.forEach((c) => (out.push(c), visit(c)));
    const start = byId.get(id);
    if (start) visit(start);
    return out;
  };
  return { byId, subtree };
}

/** Units whose name matches, with the path down to them. */
function filterTree(list: TOrganizationUnitNode[], needle: string): TOrganizationUnitNode[] {
  if (!needle) return list;
  return list.flatMap((u) => {
    if (u.displayName.toLowerCase().includes(needle)) return [u];
    const children = filterTree(u.children, needle);
    return children.length ? [{ ...u, children }] : [];
  });
}

const allKeys = (list: TOrganizationUnitNode[]): string[] => list.flatMap((u) => [u.id, ...allKeys(u.children)]);

/** /builtIn/organization: the unit tree (create, rename, drag to move, delete) and each unit's members. */
export default function OrganizationUnitsPage() {
  const { t } = useTranslation('identity');
  const can = useAccessChecker();
  const tree = useUnitTree();
  const update = useUpdateUnit();
  const remove = useDeleteUnit();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const [form, setForm] = useState<UnitFormTarget | null>(null);
  const [permissionsOf, setPermissionsOf] = useState<PermissionsTarget | null>(null);
  const roots = useMemo(() => tree.data ?? [], [tree.data]);
  const idx = useMemo(() => index(roots), [roots]);
  const needle = search.trim().toLowerCase();
  const shown = useMemo(() => filterTree(roots, needle), [roots, needle]);
  const selected = selectedId ? (idx.byId.get(selectedId) ?? null) : null;

  // Open on the first top-level unit; forget a selection whose unit is gone.
  useEffect(() => {
    if (!tree.data) return;
    if (selectedId && !idx.byId.has(selectedId)) setSelectedId(null);
    else if (!selectedId && roots[0]) setSelectedId(roots[0].id);
  }, [tree.data, idx, roots, selectedId]);

  const expandedKeys = needle ? allKeys(shown) : (expanded ?? roots.map((r) => r.id));

  const askDelete = (unit: TOrganizationUnitNode) => {
    const below = idx.subtree(unit.id);
    const members = [unit, ...below].reduce((n, u) => n + u.memberCount, 0);
    const cascade = below.length > 0 || members > 0;
    const run = async () => {
      try {
        await remove.mutateAsync({ id: unit.id, cascade });
        feedback.message?.success(t('deleted'));
        if (selectedId === unit.id) setSelectedId(unit.parentId);
      } catch (err) {
        feedback.message?.error(err instanceof ApiError ? err.message : String(err));
      }
    };
    // spec §8: delete asks 是否删除此数据？; a unit with content needs the explicit cascade confirmation.
    feedback.modal?.confirm({
      title: t('confirmDelete'),
      content: cascade
        ? `${t('units.cascadeTitle', { unit: unit.displayName })} ${t('units.cascadeText', { children: below.length, members })}`
        : t('units.deleteEmpty', { unit: unit.displayName }),
      okText: cascade ? t('units.cascadeOk') : t('common:ok'),
      cancelText: t('common:cancel'),
      okButtonProps: { danger: true },
      onOk: run,
    });
  };

  const move = (unit: TOrganizationUnitNode, parentId: string | null) => {
    if (unit.parentId === parentId) return;
    const target = parentId ? idx.byId.get(parentId) : null;
    feedback.modal?.confirm({
      title: t('confirmOperation'),
      content: target ? t('units.moveConfirm', { unit: unit.displayName, target: target.displayName }) : t('units.moveToTop', { unit: unit.displayName }),
      okText: t('common:ok'),
      cancelText: t('common:cancel'),
      onOk: async () => {
        try {
          await update.mutateAsync({ id: unit.id, input: { displayName: unit.displayName, parentId, concurrencyStamp: unit.concurrencyStamp } });
          feedback.message?.success(t('units.moved'));
          if (parentId) setExpanded((e) => [...new Set([...(e ?? roots.map((r) => r.id)), parentId])]);
        } catch (err) {
          feedback.message?.error(err instanceof ApiError ? err.message : String(err));
        }
      },
    });
  };

  // antd drop info: onto a node → under it; into a gap → beside it (same parent). Order is by code.
  const onDrop: TreeProps['onDrop'] = (info) => {
    const unit = idx.byId.get(String(info.dragNode.key));
    const target = idx.byId.get(String(info.node.key));
    if (!unit || !target || unit.id === target.id) return;
    move(unit, info.dropToGap ? target.parentId : target.id);
  };

  const nodeMenu = (unit: TOrganizationUnitNode): MenuProps['items'] =>
    [
      can(P.OrganizationUnitsCreate) && { key: 'add', icon: <PlusOutlined />, label: t('units.addChild'), onClick: () => setForm({ kind: 'create', parentId: unit.id, parentName: unit.displayName }) },
      can(P.OrganizationUnitsUpdate) && {
        key: 'rename',
        icon: <EditOutlined />,
        label: t('units.rename'),
        onClick: () => setForm({ kind: 'rename', id: unit.id, displayName: unit.displayName, parentId: unit.parentId, concurrencyStamp: unit.concurrencyStamp }),
      },
      can(P.Permissions) && {
        key: 'permissions',
        icon: <SafetyCertificateOutlined />,
        label: t('users.permissions'),
        onClick: () => setPermissionsOf({ providerName: 'OU', providerKey: unit.id, name: unit.displayName }),
      },
      can(P.OrganizationUnitsDelete) && { key: 'delete', icon: <DeleteOutlined />, danger: true, label: t('delete'), onClick: () => askDelete(unit) },
    ].filter(Boolean) as MenuProps['items'];

  const toTree = (list: TOrganizationUnitNode[]): NonNullable<TreeProps['treeData']> =>
    list.map((u) => ({
      key: u.id,
      title: (
        <span data-testid={`unit-${u.displayName}`} style={{ display: 'flex', alignItems: 'center', gap: 4, minHeight: 24 }}>
          <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{u.displayName}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {u.memberCount > 0 ? ` (${u.memberCount})` : ''}
          </Typography.Text>
          {(nodeMenu(u)?.length ?? 0) > 0 && (
            <Dropdown menu={{ items: nodeMenu(u) }} trigger={['click']}>
              <Button
                type="text"
                size="small"
                icon={<MoreOutlined />}
                aria-label={`${t('more')} ${u.displayName}`}
                onClick={(e) => e.stopPropagation()}
                style={{ marginLeft: 'auto' }}
              />
            </Dropdown>
          )}
        </span>
      ),
      children: toTree(u.children),
    }));

  return (
    <Row gutter={16}>
      <Col xs={24} md={9} xl={7}>
        <Card
          size="small"
          title={
            <Space>
              <ApartmentOutlined />
              {t('units.title')}
            </Space>
          }
          extra={
            <Space size={4}>
              <Button type="text" size="small" icon={<ReloadOutlined />} aria-label={t('refresh')} onClick={() => tree.refetch()} />
              {can(P.OrganizationUnitsCreate) && (
                <Button type="primary" size="small" icon={<PlusOutlined />} onClick={() => setForm({ kind: 'create', parentId: null, parentName: null })}>
                  {t('units.createRoot')}
                </Button>
              )}
            </Space>
          }
          styles={{ body: { minHeight: 480 } }}
        >
          <Input allowClear prefix={<SearchOutlined />} placeholder={t('units.search')} value={search} onChange={(e) => setSearch(e.target.value)} style={{ marginBottom: 8 }} />
          {can(P.OrganizationUnitsUpdate) && roots.length > 0 && (
            <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 8 }}>
              {t('units.dragHint')}
            </Typography.Paragraph>
          )}
          {tree.isLoading ? (
            <Spin style={{ display: 'block', margin: 32 }} />
          ) : shown.length === 0 ? (
            <Empty description={needle ? t('empty') : t('units.empty')} />
          ) : (
            <Tree
              blockNode
              showLine
              draggable={can(P.OrganizationUnitsUpdate) ? { icon: false } : false}
              treeData={toTree(shown)}
              selectedKeys={selectedId ? [selectedId] : []}
              expandedKeys={expandedKeys}
              onExpand={(keys) => setExpanded(keys.map(String))}
              onSelect={(keys) => keys[0] && setSelectedId(String(keys[0]))}
              onDrop={onDrop}
            />
          )}
        </Card>
      </Col>
      <Col xs={24} md={15} xl={17}>
        <Card
          size="small"
          title={selected ? selected.displayName : t('units.title')}
          extra={
            selected && (
              <Space size={4}>
                {nodeMenu(selected)!.map((item) => {
                  const entry = item as { key: string; icon: React.ReactNode; label: string; danger?: boolean; onClick(): void };
                  return (
                    <Button key={entry.key} size="small" icon={entry.icon} danger={entry.danger} onClick={entry.onClick}>
                      {entry.label}
                    </Button>
                  );
                })}
              </Space>
            )
          }
          styles={{ body: { minHeight: 480 } }}
        >
          {!selected ? (
            <Empty description={t('units.pickUnit')} />
          ) : (
            <>
              <Descriptions
                size="small"
                column={{ xs: 1, sm: 2, lg: 4 }}
                style={{ marginBottom: 16 }}
                items={[
                  { key: 'code', label: t('units.code'), children: <Typography.Text code>{selected.code}</Typography.Text> },
                  {
                    key: 'leader',
                    label: t('units.leader'),
                    children: selected.leaderName ? <Tag color="gold">{selected.leaderName}</Tag> : <Typography.Text type="secondary">{t('units.noLeader')}</Typography.Text>,
                  },
                  { key: 'members', label: t('units.memberCount'), children: selected.memberCount },
                  { key: 'children', label: t('units.childCount'), children: selected.childCount },
                ]}
              />
              <Typography.Title level={5} style={{ marginTop: 0 }}>
                {t('members.title')}
              </Typography.Title>
              <UnitMembersPanel key={selected.id} unit={selected} />
            </>
          )}
        </Card>
      </Col>
      <UnitFormModal
        target={form}
        onClose={() => setForm(null)}
        onSaved={(id) => {
          if (form?.kind === 'create' && form.parentId) setExpanded((e) => [...new Set([...(e ?? roots.map((r) => r.id)), form.parentId!])]);
          setForm(null);
          setSelectedId(id);
        }}
      />
      <PermissionsDrawer target={permissionsOf} onClose={() => setPermissionsOf(null)} />
    </Row>
  );
}
