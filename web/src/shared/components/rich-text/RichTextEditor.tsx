import { BoldOutlined, ItalicOutlined, LinkOutlined, OrderedListOutlined, RedoOutlined, StrikethroughOutlined, UnderlineOutlined, UndoOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Input, Popover, Space, Tooltip } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { sanitizeRichText } from './sanitize.ts';
import './rich-text-texts.ts';
import './rich-text.css';

// The rich text editor (Tiptap), loaded on demand (React.lazy) so the main bundle does not carry
// it. It edits what DOMPurify let through and emits Tiptap's HTML, which the server cleans again.

export interface RichTextEditorProps {
  value: unknown;
  onChange(html: string): void;
  id?: string;
  label?: string;
  status?: 'error';
  autoFocus?: boolean;
}

const EXTENSIONS = [
  StarterKit.configure({
    heading: { levels: [1, 2, 3, 4] },
    // No <hr>: the stored allowlist has none.
    horizontalRule: false,
    link: { openOnClick: false, autolink: true, protocols: [], defaultProtocol: 'https', HTMLAttributes: { rel: 'noopener noreferrer nofollow', target: '_blank' }, isAllowedUri: (url) => /^(https?:|mailto:)/i.test(url) },
  }),
];

function ToolButton({ title, active, disabled, onClick, children }: { title: string; active?: boolean; disabled?: boolean; onClick(): void; children: ReactNode }) {
  return (
    <Tooltip title={title}>
      <Button size="small" type={active ? 'primary' : 'text'} aria-label={title} aria-pressed={active} disabled={disabled} onMouseDown={(e) => e.preventDefault()} onClick={onClick}>
        {children}
      </Button>
    </Tooltip>
  );
}

function LinkButton({ editor, active }: { editor: Editor; active: boolean }) {
  const { t } = useTranslation('textControls');
  const [open, setOpen] = useState(false);
  const [href, setHref] = useState('');
  const apply = () => {
    const url = href.trim();
    const chain = editor.chain().focus().extendMarkRange('link');
    if (!url) chain.unsetLink().run();
    else if (/^(https?:|mailto:)/i.test(url)) chain.setLink({ href: url }).run();
    else chain.setLink({ href: `https://${url}` }).run();
    setOpen(false);
  };
  return (
    <Popover
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) setHref(String(editor.getAttributes('link').href ?? ''));
      }}
      trigger="click"
      content={
        <Space.Compact>
          <Input autoFocus size="small" style={{ width: 240 }} placeholder={t('linkPlaceholder')} value={href} onChange={(e) => setHref(e.target.value)} onPressEnter={apply} aria-label={t('link')} />
          <Button size="small" type="primary" onClick={apply}>{t('linkApply')}</Button>
        </Space.Compact>
      }
    >
      <span>
        <ToolButton title={t('link')} active={active} onClick={() => undefined}>
          <LinkOutlined />
        </ToolButton>
      </span>
    </Popover>
  );
}

function Toolbar({ editor }: { editor: Editor }) {
  const { t } = useTranslation('textControls');
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      bulletList: e.isActive('bulletList'),
      orderedList: e.isActive('orderedList'),
      link: e.isActive('link'),
      heading: ([1, 2, 3] as const).find((level) => e.isActive('heading', { level })) ?? 0,
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const run = (f: (c: ReturnType<Editor['chain']>) => ReturnType<Editor['chain']>) => () => f(editor.chain().focus()).run();
  return (
    <div className="tz-rich-text-toolbar" role="toolbar" aria-label={t('toolbar')}>
      <ToolButton title={t('bold')} active={state.bold} onClick={run((c) => c.toggleBold())}><BoldOutlined /></ToolButton>
      <ToolButton title={t('italic')} active={state.italic} onClick={run((c) => c.toggleItalic())}><ItalicOutlined /></ToolButton>
      <ToolButton title={t('underline')} active={state.underline} onClick={run((c) => c.toggleUnderline())}><UnderlineOutlined /></ToolButton>
      <ToolButton title={t('strike')} active={state.strike} onClick={run((c) => c.toggleStrike())}><StrikethroughOutlined /></ToolButton>
      {([1, 2, 3] as const).map((level) => (
        <ToolButton key={level} title={t('heading', { level })} active={state.heading === level} onClick={run((c) => c.toggleHeading({ level }))}>
          {`H${level}`}
        </ToolButton>
      ))}
      <ToolButton title={t('bulletList')} active={state.bulletList} onClick={run((c) => c.toggleBulletList())}><UnorderedListOutlined /></ToolButton>
      <ToolButton title={t('orderedList')} active={state.orderedList} onClick={run((c) => c.toggleOrderedList())}><OrderedListOutlined /></ToolButton>
      <LinkButton editor={editor} active={state.link} />
      <ToolButton title={t('undo')} disabled={!state.canUndo} onClick={run((c) => c.undo())}><UndoOutlined /></ToolButton>
      <ToolButton title={t('redo')} disabled={!state.canRedo} onClick={run((c) => c.redo())}><RedoOutlined /></ToolButton>
    </div>
  );
}

export default function RichTextEditor({ value, onChange, id, label, status, autoFocus }: RichTextEditorProps) {
  const editor = useEditor({
    extensions: EXTENSIONS,
    content: sanitizeRichText(value),
    autofocus: autoFocus ? 'end' : false,
    editorProps: { attributes: { ...(id ? { id } : {}), 'aria-label': label ?? '', 'aria-multiline': 'true', role: 'textbox' } },
    // An editor holding nothing stores '' (not "<p></p>"), so "required" means what it says.
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });
  // A value set from outside (another record opened, a linkage) replaces the content; typing does not echo back.
  useEffect(() => {
    const html = typeof value === 'string' ? value : '';
    if (editor.isFocused || html === (editor.isEmpty ? '' : editor.getHTML())) return;
    editor.commands.setContent(sanitizeRichText(html), { emitUpdate: false });
  }, [editor, value]);
  return (
    <div className={`tz-rich-text${status === 'error' ? ' tz-rich-text-error' : ''}`}>
      <Toolbar editor={editor} />
      <EditorContent editor={editor} />
    </div>
  );
}
