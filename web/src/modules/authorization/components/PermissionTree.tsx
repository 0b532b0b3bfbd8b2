import { Empty, Space, Tag, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { checkedKeys, filterGroups, isShownChecked, relations, toggleGrant, type GroupNode, type PermissionNode } from './permission-tree-model.ts';
import '../i18n.ts';

export interface PermissionTreeProps {
  groups: GroupNode[];
  /** The provider's own grants being edited. */
  value: Set<string>;
  onChange(next: Set<string>): void;
  search: string;
  expandedKeys: string[];
  onExpand(keys: string[]): void;
  readOnly?: boolean;
}

function Highlight({ text, search }: { text: string; search: string }) {
  const at = search ? text.toLowerCase().indexOf(search.toLowerCase()) : -1;
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <mark style={{ padding: 0, background: '#ffe58f' }}>{text.slice(at, at + search.length)}</mark>
      {text.slice(at + search.length)}
    </>
  );
}

/** A searchable checkbox tree of permission groups; inherited grants show checked and locked with their source. */
export function PermissionTree({ groups, value, onChange, search, expandedKeys, onExpand, readOnly }: PermissionTreeProps) {
  const { t } = useTranslation('authorization');
  const rel = useMemo(() => relations(groups), [groups]);
  const visible = useMemo(() => filterGroups(groups, search), [groups, search]);
  const trimmed = search.trim();
  // While searching every match is shown open.
  const searchExpanded = useMemo(() => {
    const keys: string[] = [];
    const walk = (list: PermissionNode[]) => list.forEach((n) => (keys.push(n.key), walk(n.children)));
    for (const g of visible) {
      keys.push(g.key);
      walk(g.children);
    }
    return keys;
  }, [visible]);

  // Inherited grants are shown checked and cannot be changed here.
  const isLocked = (n: PermissionNode) => !!readOnly || n.inheritedFrom.length > 0;
  const isChecked = (n: PermissionNode) => isShownChecked(n, value);

  const treeData: DataNode[] = useMemo(() => {
    const permissionNode = (n: PermissionNode): DataNode => ({
      key: n.key,
      disableCheckbox: isLocked(n),
      title: (
        <Space size={6} wrap>
          <span>
            <Highlight text={n.displayName} search={trimmed} />
          </span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} code>
            <Highlight text={n.name} search={trimmed} />
          </Typography.Text>
          {[...new Set(n.inheritedFrom.map((s) => s.providerName))].map((p) => (
            <Tag key={p} color={p === 'R' ? 'blue' : p === 'OU' ? 'purple' : 'default'} style={{ marginInlineEnd: 0 }}>
              {t(`tree.inherited.${p}`)}
            </Tag>
          ))}
        </Space>
      ),
      children: n.children.map(permissionNode),
    });
    return visible.map((g) => {
      const all = g.names.map((name) => rel.byName.get(name)!);
      const granted = all.filter(isChecked).length;
      return {
        key: g.key,
        disableCheckbox: readOnly || all.every(isLocked),
        title: (
          <Space size={6}>
            <Typography.Text strong>
              <Highlight text={g.displayName} search={trimmed} />
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {granted}/{all.length}
            </Typography.Text>
            {!g.isSystem && <Tag color="gold">{t('tree.designer')}</Tag>}
          </Space>
        ),
        children: g.children.map(permissionNode),
      };
    });
  }, [visible, value, readOnly, trimmed, t, rel]); // isLocked/isChecked read only value and readOnly

  const checked = useMemo(() => checkedKeys(groups, rel, value), [groups, value, rel]);

  const onCheck = (_: unknown, info: { node: { key: React.Key }; checked: boolean }) => {
    if (readOnly) return;
    onChange(toggleGrant(groups, rel, value, String(info.node.key), info.checked));
  };

  if (visible.length === 0) return <Empty description={trimmed ? t('tree.noMatch') : t('tree.empty')} />;
  return (
    <Tree
      checkable
      checkStrictly
      selectable={false}
      blockNode
      treeData={treeData}
      checkedKeys={checked}
      onCheck={onCheck as never}
      expandedKeys={trimmed ? searchExpanded : expandedKeys}
      onExpand={(keys) => !trimmed && onExpand(keys.map(String))}
      aria-label={t('tree.label')}
    />
  );
}
