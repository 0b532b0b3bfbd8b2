import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Input, Row, Space, Spin, Tabs, Tag, Tree, Typography } from 'antd';
import type { TreeProps } from 'antd';
import type { TBusinessMenu } from '@tessera/core/contracts/business-menus';
import { P } from '@tessera/core/contracts/permissions';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Auth, useAccess } from '../../../shared/components/Auth.tsx';
import { pickText } from '../../../shared/components/LocalizedTextInput.tsx';
import { useAllBusinessMenus, useMoveBusinessMenu } from '../api/business-menus.ts';
import { MenuForm } from '../components/MenuForm.tsx';
import { MenuIcon } from '../../../shared/components/MenuIcon.tsx';
import { SystemMenusPanel } from '../components/SystemMenusPanel.tsx';
import '../i18n.ts';

type Mode = { kind: 'none' } | { kind: 'edit'; id: string } | { kind: 'create'; parentId: string | null };

function index(items: TBusinessMenu[]) {
  const byId = new Map<string, TBusinessMenu>();
  const walk = (list: TBusinessMenu[]) => list.forEach((m) => (byId.set(m.id, m), walk(m.subBusinessMenus)));
  walk(items);
  return byId;
}

function filterMenus(list: TBusinessMenu[], needle: string): TBusinessMenu[] {
  if (!needle) return list;
  return list.flatMap((m) => {
    if (Object.values(m.title).some((v) => v.toLowerCase().includes(needle))) return [m];
    const children = filterMenus(m.subBusinessMenus, needle);
    return children.length ? [{ ...m, subBusinessMenus: children }] : [];
  });
}

/** /builtIn/menu: business menus (editable tree) and the fixed system menus (read-only, with their codes). */
export default function MenusPage() {
  const { t } = useTranslation('businessMenus');
  return (
    <Tabs
      destroyOnHidden
      items={[
        { key: 'business', label: t('tabs.business'), children: <BusinessMenusPanel /> },
        { key: 'system', label: t('tabs.system'), children: <SystemMenusPanel /> },
      ]}
    />
  );
}

/** The business-menu tree; drag to reorder and re-parent, edit on the right. */
function BusinessMenusPanel() {
  const { t, i18n } = useTranslation('businessMenus');
  const menus = useAllBusinessMenus();
  const move = useMoveBusinessMenu();
  const canMove = useAccess(P.MenusUpdate);
  const [mode, setMode] = useState<Mode>({ kind: 'none' });
  const [search, setSearch] = useState('');
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const items = menus.data?.items ?? [];
  const byId = useMemo(() => index(items), [items]);
  const needle = search.trim().toLowerCase();
  const shown = useMemo(() => filterMenus(items, needle), [items, needle]);

  const toTree = (list: TBusinessMenu[]): NonNullable<TreeProps['treeData']> =>
    list.map((m) => ({
      key: m.id,
      title: (
        <Space size={6}>
          <span>{pickText(m.title, i18n.language) || '—'}</span>
          {m.isJump && <Tag color="blue">{t('tree.jump')}</Tag>}
          {m.associateKey && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{m.associateKey}</Typography.Text>}
        </Space>
      ),
      // A blank slot keeps titles aligned when a menu has no icon.
      icon: m.url ? <MenuIcon name={m.url} business /> : <span style={{ display: 'inline-block', width: 14 }} />,
      children: toTree(m.subBusinessMenus),
    }));

  // antd drop info → the server's move: new parent and index among the siblings without the dragged menu.
  const onDrop: TreeProps['onDrop'] = (info) => {
    const dragId = String(info.dragNode.key);
    const dropId = String(info.node.key);
    const target = byId.get(dropId);
    if (!target || dragId === dropId) return;
    const pos = info.node.pos.split('-');
    const relative = info.dropPosition - Number(pos[pos.length - 1]);
    let parentId: string | null;
    let at: number;
    if (!info.dropToGap) {
      parentId = dropId;
      at = 0;
    } else {
      parentId = target.parentId;
      const siblings = (parentId ? byId.get(parentId)!.subBusinessMenus : items).filter((m) => m.id !== dragId);
      at = siblings.findIndex((m) => m.id === dropId) + (relative === 1 ? 1 : 0);
      if (at < 0) at = 0;
    }
    move.mutate({ id: dragId, input: { parentId, index: at } });
  };

  const selected = mode.kind === 'edit' ? byId.get(mode.id) ?? null : null;
  const parent = mode.kind === 'create' ? (mode.parentId ? byId.get(mode.parentId) ?? null : null) : selected?.parentId ? byId.get(selected.parentId) ?? null : null;

  return (
    <Row gutter={[16, 16]} wrap={false} className="master-detail" style={{ alignItems: 'flex-start' }}>
      <Col flex="380px">
        <Card
          size="small"
          title={t('title')}
          extra={
            <Auth code={P.MenusCreate}>
              <Button size="small" type="primary" icon={<PlusOutlined />} onClick={() => setMode({ kind: 'create', parentId: null })}>
                {t('createTop')}
              </Button>
            </Auth>
          }
        >
          <Input.Search allowClear placeholder={t('search')} value={search} onChange={(e) => setSearch(e.target.value)} style={{ marginBottom: 8 }} />
          {canMove && items.length > 1 && (
            <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 8 }}>
              {t('dragHint')}
            </Typography.Paragraph>
          )}
          <Spin spinning={menus.isFetching || move.isPending}>
            {shown.length ? (
              <Tree
                blockNode
                showIcon
                draggable={canMove && !needle ? { icon: false } : false}
                treeData={toTree(shown)}
                selectedKeys={mode.kind === 'edit' ? [mode.id] : []}
                expandedKeys={needle ? [...byId.keys()] : (expanded ?? [...byId.keys()])}
                onExpand={(keys) => setExpanded(keys.map(String))}
                onSelect={(keys) => keys.length && setMode({ kind: 'edit', id: String(keys[0]) })}
                onDrop={onDrop}
                aria-label={t('title')}
                data-testid="business-menu-tree"
              />
            ) : (
              <Empty description={menus.isError ? t('loadFailed') : needle ? t('noMatch') : t('empty')} />
            )}
          </Spin>
        </Card>
      </Col>
      <Col flex="auto" style={{ minWidth: 0 }}>
        <Card size="small" title={mode.kind === 'create' ? t('createTitle') : selected ? pickText(selected.title, i18n.language) : t('details')}>
          {mode.kind === 'none' || (mode.kind === 'edit' && !selected) ? (
            <Empty description={t('pickOne')} style={{ margin: 48 }} />
          ) : (
            <MenuForm
              key={mode.kind === 'edit' ? mode.id : `new:${mode.parentId}`}
              menu={selected}
              parent={parent}
              onSaved={(m) => setMode({ kind: 'edit', id: m.id })}
              onDeleted={() => setMode({ kind: 'none' })}
              onAddChild={() => selected && setMode({ kind: 'create', parentId: selected.id })}
              onCancel={() => setMode({ kind: 'none' })}
            />
          )}
        </Card>
      </Col>
    </Row>
  );
}
