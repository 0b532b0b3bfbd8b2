import { DeleteOutlined, EditOutlined, LinkOutlined, PlusOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Empty, Grid, Input, Result, Row, Skeleton, Space, Spin, Tag, Tooltip, Tree, Typography } from 'antd';
import type { TreeProps } from 'antd';
import type { THelpDocument, THelpDocumentNode } from '@tessera/core/contracts/help';
import { P } from '@tessera/core/contracts/permissions';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api, ApiError } from '../../../shared/api/client.ts';
import { useAccess } from '../../../shared/components/Auth.tsx';
import { HelpHtml } from '../../../shared/components/HelpHtml.tsx';
import { HelpLink, helpDocumentKey, helpTitle } from '../../../shared/components/HelpLink.tsx';
import { fetchHelpDocumentByKey, helpKeys, useDeleteHelpDocument, useHelpDocument, useHelpTree } from '../api/help-documents.ts';
import { HelpDocumentForm, type HelpFormMode } from '../components/HelpDocumentForm.tsx';
import '../i18n.ts';

const SEARCH_DELAY_MS = 300;

function index(roots: THelpDocumentNode[]) {
  const byId = new Map<string, THelpDocumentNode>();
  const walk = (list: THelpDocumentNode[]) => {
    for (const n of list) {
      byId.set(n.id, n);
      walk(n.children);
    }
  };
  walk(roots);
  return byId;
}

const countBelow = (n: THelpDocumentNode): number => n.children.reduce((sum, c) => sum + 1 + countBelow(c), 0);

/** `text` with every occurrence of `needle` marked. */
function highlight(text: string, needle: string): ReactNode {
  if (!needle) return text;
  const lower = text.toLowerCase();
  const parts: ReactNode[] = [];
  let at = 0;
  for (let hit = lower.indexOf(needle); hit >= 0; hit = lower.indexOf(needle, hit + needle.length)) {
    parts.push(text.slice(at, hit), <mark key={hit}>{text.slice(hit, hit + needle.length)}</mark>);
    at = hit + needle.length;
  }
  parts.push(text.slice(at));
  return parts;
}

/**
 * /system/documentation: the help document tree (searchable) beside the selected document. Every
 * signed-in user reads; holders of Tessera.Help.Manage create, edit (Markdown with a server-rendered
 * preview and images), move by drag and delete. `?key=users` opens a page's document, `?create=users`
 * starts one with that key (the "help" link of a page without a document).
 */
export default function HelpDocumentsPage() {
  const { t, i18n } = useTranslation('help');
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const canWrite = useAccess(P.HelpManage);
  const screens = Grid.useBreakpoint();
  const narrow = !screens.md;
  const paneHeight = narrow ? undefined : 480;
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState('');
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const [form, setForm] = useState<HelpFormMode | null>(null);
  const dirty = useRef(false);
  const pane = useRef<HTMLDivElement>(null);
  const tree = useHelpTree(filter);
  // The whole tree (the search narrows `tree`): parents to pick, sub-documents to count, drag targets.
  const fullTree = useHelpTree('');
  const remove = useDeleteHelpDocument();

  const selectedId = params.get('id');
  const doc = useHelpDocument(selectedId);
  const roots = useMemo(() => tree.data?.items ?? [], [tree.data]);
  const allRoots = useMemo(() => fullTree.data?.items ?? [], [fullTree.data]);
  const byId = useMemo(() => index(allRoots), [allRoots]);
  const needle = filter.trim().toLowerCase();

  useEffect(() => {
    const timer = window.setTimeout(() => setFilter(search.trim()), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [search]);

  const setQuery = (next: Record<string, string | null>) =>
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(next)) {
          if (v) p.set(k, v);
          else p.delete(k);
        }
        return p;
      },
      { replace: true },
    );

  // `?key=…` (from a page's help link) → that document; `?create=…` → a new document with that key.
  const linkKey = params.get('key');
  const createKey = params.get('create');
  useEffect(() => {
    if (!linkKey) return;
    let live = true;
    fetchHelpDocumentByKey(linkKey).then(
      (found) => live && setQuery({ key: null, id: found.id }),
      (err: unknown) => {
        if (!live) return;
        setQuery({ key: null });
        if (err instanceof ApiError && err.status === 404) message.warning(t('keyMissing', { key: linkKey }));
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [linkKey]);
  useEffect(() => {
    if (!createKey) return;
    if (canWrite) setForm({ kind: 'create', parentId: null, key: createKey });
    setQuery({ create: null });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [createKey, canWrite]);

  /** Runs `go` now, or after confirming that unsaved edits may go. */
  const leave = (go: () => void) => {
    if (form && dirty.current) {
      modal.confirm({
        title: t('unsaved'),
        onOk: () => {
          dirty.current = false;
          go();
        },
      });
    } else go();
  };

  const select = (id: string) =>
    leave(() => {
      setForm(null);
      setQuery({ id });
      // On a phone the document is below the tree.
      if (narrow) requestAnimationFrame(() => pane.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }));
    });

  const openCreate = (parentId: string | null) => leave(() => setForm({ kind: 'create', parentId }));

  const askDelete = (d: THelpDocument) => {
    const node = byId.get(d.id);
    const below = node ? countBelow(node) : 0;
    modal.confirm({
      title: t('confirmDelete'),
      content: (
        <>
          <Typography.Paragraph style={{ marginBottom: 4 }}>{helpTitle(d.title, i18n.language)}</Typography.Paragraph>
          {below > 0 && <Typography.Text type="danger">{t('deleteChildren', { count: below })}</Typography.Text>}
        </>
      ),
      okButtonProps: { danger: true },
      onOk: async () => {
        await remove.mutateAsync({ id: d.id, cascade: below > 0 });
        client.removeQueries({ queryKey: helpDocumentKey(d.key) });
        message.success(t('deleted'));
        setForm(null);
        setQuery({ id: d.parentId });
      },
    });
  };

  // antd drop info: onto a node → under it (last); into a gap → beside it, before or after.
  const onDrop: TreeProps['onDrop'] = (info) => {
    const moved = byId.get(String(info.dragNode.key));
    const target = byId.get(String(info.node.key));
    if (!moved || !target || moved.id === target.id) return;
    const siblingsOf = (parentId: string | null) => (parentId ? (byId.get(parentId)?.children ?? []) : allRoots).filter((s) => s.id !== moved.id);
    let parentId: string | null;
    let order: number | undefined;
    if (!info.dropToGap) {
      parentId = target.id;
    } else {
      parentId = target.parentId;
      const siblings = siblingsOf(parentId);
      const at = siblings.findIndex((s) => s.id === target.id);
      const after = info.dropPosition > Number(String(info.node.pos).split('-').pop());
      const before = siblings[after ? at : at - 1];
      const next = siblings[after ? at + 1 : at];
      // Between the neighbours' orders; the neighbour's own order when they leave no room.
      order = before ? (next && next.order - before.order > 1 ? Math.floor((before.order + next.order) / 2) : before.order + 1) : Math.max(0, (next?.order ?? 1) - 1);
    }
    void (async () => {
      try {
        const full = await api.get<THelpDocument>(`/app/help-documents/${moved.id}`);
        await api.put(
          `/app/help-documents/${moved.id}`,
          { key: full.key, title: full.title, markdown: full.markdown, parentId, ...(order !== undefined ? { order } : {}), concurrencyStamp: full.concurrencyStamp },
          { silent: true },
        );
        await client.invalidateQueries({ queryKey: helpKeys.all });
        message.success(t('moved'));
      } catch (err) {
        message.error((err as Error).message);
      }
    })();
  };

  const toTree = (list: THelpDocumentNode[]): NonNullable<TreeProps['treeData']> =>
    list.map((n) => {
      const title = helpTitle(n.title, i18n.language) || n.key;
      return {
        key: n.id,
        title: (
          <span data-testid={`help-node-${n.key}`} style={{ display: 'block', padding: '2px 0', opacity: needle && !n.isMatch ? 0.6 : 1 }}>
            <span>{highlight(title, needle)}</span>
            {n.snippet && (
              <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, lineHeight: 1.4 }}>
                {highlight(n.snippet, needle)}
              </Typography.Text>
            )}
          </span>
        ),
        children: toTree(n.children),
      };
    });

  // The selected document stays visible: its ancestors open (also after creating a sub-document).
  useEffect(() => {
    if (!selectedId || !byId.has(selectedId)) return;
    const up: string[] = [];
    for (let at = byId.get(selectedId)?.parentId; at; at = byId.get(at)?.parentId) up.push(at);
    if (up.length) setExpanded((prev) => [...new Set([...(prev ?? allRoots.map((r) => r.id)), ...up])]);
  }, [selectedId, byId, allRoots]);

  const shownIds = useMemo(() => [...index(roots).keys()], [roots]);
  const expandedKeys = needle ? shownIds : (expanded ?? roots.map((r) => r.id));
  const current = doc.data && doc.data.id === selectedId ? doc.data : null;

  const readPane = () => {
    if (!selectedId) return <Empty style={{ marginTop: 64 }} description={roots.length ? t('pickOne') : t('empty')} />;
    if (doc.isLoading) return <Skeleton active paragraph={{ rows: 10 }} />;
    if (doc.error) return <Result status={doc.error instanceof ApiError && doc.error.status === 404 ? '404' : 'warning'} title={(doc.error as Error).message} />;
    if (!current) return null;
    return (
      <article data-testid="help-document">
        <HelpHtml html={current.html} />
        <Typography.Paragraph type="secondary" style={{ marginTop: 24, fontSize: 12 }}>
          {t(current.updatedByName ? 'updated' : 'updatedAt', { name: current.updatedByName, time: new Date(current.updatedAt).toLocaleString(i18n.language) })}
        </Typography.Paragraph>
      </article>
    );
  };

  const actions =
    !form && (
      <Space size={4} wrap>
        <HelpLink docKey="help-documents" />
        {current && (
          <>
            <Tooltip title={t('keyHelp')}>
              <Tag icon={<LinkOutlined />}>{current.key}</Tag>
            </Tooltip>
            {canWrite && (
              <>
                <Button size="small" icon={<PlusOutlined />} onClick={() => openCreate(current.id)}>
                  {t('createChild')}
                </Button>
                <Button size="small" icon={<EditOutlined />} onClick={() => setForm({ kind: 'edit', doc: current })}>
                  {t('edit')}
                </Button>
                <Button size="small" danger icon={<DeleteOutlined />} onClick={() => askDelete(current)}>
                  {t('delete')}
                </Button>
              </>
            )}
          </>
        )}
      </Space>
    );

  const paneTitle = form ? (form.kind === 'create' ? t('create') : t('edit')) : current ? helpTitle(current.title, i18n.language) || current.key : t('title');

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} md={9} xl={7}>
        <Card
          size="small"
          title={t('title')}
          extra={
            <Space size={4}>
              <Tooltip title={t('refresh')}>
                <Button type="text" size="small" icon={<ReloadOutlined />} aria-label={t('refresh')} onClick={() => void tree.refetch()} />
              </Tooltip>
              {canWrite && (
                <Button type="primary" size="small" icon={<PlusOutlined />} onClick={() => openCreate(null)}>
                  {t('create')}
                </Button>
              )}
            </Space>
          }
          styles={{ body: { minHeight: paneHeight } }}
        >
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={t('search')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            style={{ marginBottom: 8 }}
            aria-label={t('search')}
          />
          {canWrite && roots.length > 1 && !needle && (
            <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 8 }}>
              {t('dragHint')}
            </Typography.Paragraph>
          )}
          {tree.isLoading ? (
            <Spin style={{ display: 'block', margin: 32 }} />
          ) : tree.error ? (
            <Result status="warning" title={(tree.error as Error).message} />
          ) : roots.length === 0 ? (
            <Empty description={needle ? t('noMatch') : t('empty')} />
          ) : (
            <Spin spinning={tree.isFetching} delay={300}>
              <Tree
                blockNode
                showLine
                draggable={canWrite && !needle ? { icon: false } : false}
                treeData={toTree(roots)}
                selectedKeys={selectedId ? [selectedId] : []}
                expandedKeys={expandedKeys}
                onExpand={(keys) => setExpanded(keys.map(String))}
                onSelect={(keys) => keys[0] && select(String(keys[0]))}
                onDrop={onDrop}
              />
            </Spin>
          )}
        </Card>
      </Col>
      <Col xs={24} md={15} xl={17} ref={pane}>
        <Card
          size="small"
          title={<span data-testid="help-pane-title">{paneTitle}</span>}
          extra={!narrow && actions}
          styles={{ body: { minHeight: paneHeight } }}
        >
          {narrow && actions && <div style={{ marginBottom: 12 }}>{actions}</div>}
          {form ? (
            <HelpDocumentForm
              mode={form}
              roots={allRoots}
              onDirtyChange={(d) => (dirty.current = d)}
              onCancel={() => leave(() => setForm(null))}
              onSaved={(saved) => {
                dirty.current = false;
                setForm(null);
                client.setQueryData(helpKeys.one(saved.id), saved);
                client.removeQueries({ queryKey: helpDocumentKey(saved.key) });
                if (form.kind === 'edit' && form.doc.key !== saved.key) client.removeQueries({ queryKey: helpDocumentKey(form.doc.key) });
                setQuery({ id: saved.id });
              }}
            />
          ) : (
            readPane()
          )}
        </Card>
      </Col>
    </Row>
  );
}
