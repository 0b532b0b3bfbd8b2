import { SearchOutlined } from '@ant-design/icons';
import { Empty, Input, Modal, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { menuLeaves, menuTitle, type MenuNode } from '../menus/menu-model.ts';
import { useLayout } from './layout-store.ts';
import { MenuIcon } from '../../shared/components/MenuIcon.tsx';

/** Search over every menu the user can open (system and business); Enter or click opens it. */
export function MenuSearch({ nodes }: { nodes: MenuNode[] }) {
  const { t, i18n } = useTranslation();
  const open = useLayout((s) => s.searchOpen);
  const setOpen = useLayout((s) => s.setSearchOpen);
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const entries = useMemo(
    () =>
      menuLeaves(nodes).map(({ node, trail }) => ({
        node,
        title: menuTitle(node, t, i18n.language),
        path: [...trail, node].map((n) => menuTitle(n, t, i18n.language)).join(' / '),
      })),
    [nodes, t, i18n.language],
  );
  const needle = query.trim().toLowerCase();
  const matches = needle ? entries.filter((e) => e.path.toLowerCase().includes(needle) || e.node.path.toLowerCase().includes(needle)) : entries;

  const choose = (node: MenuNode) => {
    setOpen(false);
    setQuery('');
    navigate(node.path);
  };

  return (
    <Modal
      open={open}
      onCancel={() => setOpen(false)}
      footer={null}
      title={t('shell:header.search')}
      destroyOnHidden
      width={520}
      afterOpenChange={(visible) => visible && setActive(0)}
    >
      <Input
        autoFocus
        prefix={<SearchOutlined />}
        placeholder={t('shell:header.searchPlaceholder')}
        aria-label={t('shell:header.searchPlaceholder')}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') setActive((i) => Math.min(i + 1, matches.length - 1));
          if (e.key === 'ArrowUp') setActive((i) => Math.max(i - 1, 0));
          if (e.key === 'Enter' && matches[active]) choose(matches[active].node);
        }}
      />
      <div role="listbox" aria-label={t('shell:header.search')} className="menu-search-results">
        {matches.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('shell:header.searchEmpty')} />
        ) : (
          matches.map((entry, i) => (
            <div
              key={entry.node.path}
              role="option"
              aria-selected={i === active}
              className={`menu-search-option${i === active ? ' menu-search-option-active' : ''}`}
              onMouseEnter={() => setActive(i)}
              onClick={() => choose(entry.node)}
            >
              <MenuIcon name={entry.node.icon} business={entry.node.businessIcon} />
              <span>
                <Typography.Text>{entry.title}</Typography.Text>
                <br />
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {entry.path}
                </Typography.Text>
              </span>
            </div>
          ))
        )}
      </div>
    </Modal>
  );
}
