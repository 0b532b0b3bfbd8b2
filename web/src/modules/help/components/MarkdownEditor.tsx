import { BoldOutlined, CodeOutlined, FontSizeOutlined, ItalicOutlined, LinkOutlined, OrderedListOutlined, PictureOutlined, TableOutlined } from '@ant-design/icons';
import { App, Button, Col, Input, Row, Space, Spin, Tooltip, Typography, Upload } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { HELP_IMAGE_MAX_BYTES } from '@tessera/core/contracts/help';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HelpHtml } from '../../../shared/components/HelpHtml.tsx';
import { previewMarkdown, uploadHelpImage } from '../api/help-documents.ts';

const PREVIEW_DELAY_MS = 300;

interface Props {
  value?: string;
  onChange?: (value: string) => void;
  id?: string;
  /** Test ids of the text area and preview (`help-markdown`, `help-preview`); one per editor in a form. */
  testIdPrefix?: string;
}

/** Markdown with a toolbar, image upload and a live preview rendered (and sanitised) by the server. */
export function MarkdownEditor({ value = '', onChange, id, testIdPrefix = 'help' }: Props) {
  const { t } = useTranslation('help');
  const { message } = App.useApp();
  const area = useRef<TextAreaRef>(null);
  const [html, setHtml] = useState('');
  const [rendering, setRendering] = useState(false);
  const [uploading, setUploading] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      setRendering(true);
      previewMarkdown(value, controller.signal)
        .then((r) => setHtml(r.html))
        .catch(() => undefined)
        .finally(() => !controller.signal.aborted && setRendering(false));
    }, PREVIEW_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [value]);

  /** Wraps the selection (or inserts a placeholder) and keeps the cursor inside. */
  const edit = (before: string, after = '', placeholder = '') => {
    const el = area.current?.resizableTextArea?.textArea;
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    const selected = value.slice(start, end) || placeholder;
    const next = `${value.slice(0, start)}${before}${selected}${after}${value.slice(end)}`;
    onChange?.(next);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + before.length, start + before.length + selected.length);
    });
  };
  const lineStart = (prefix: string) => {
    const el = area.current?.resizableTextArea?.textArea;
    const start = el?.selectionStart ?? value.length;
    const at = value.lastIndexOf('\n', start - 1) + 1;
    onChange?.(`${value.slice(0, at)}${prefix}${value.slice(at)}`);
  };

  const insertImage = async (file: File) => {
    if (file.size > HELP_IMAGE_MAX_BYTES) {
      message.error(t('imageTooLarge'));
      return;
    }
    setUploading(true);
    try {
      const image = await uploadHelpImage(file);
      const alt = file.name.replace(/\.[^.]+$/, '').replace(/[[\]]/g, '');
      // On a paragraph of its own (after a table row or a list item it would join them).
      const el = area.current?.resizableTextArea?.textArea;
      const start = el?.selectionStart ?? value.length;
      const end = el?.selectionEnd ?? value.length;
      const head = value.slice(0, start);
      const tail = value.slice(end);
      const lead = !head ? '' : head.endsWith('\n\n') ? '' : head.endsWith('\n') ? '\n' : '\n\n';
      const trail = tail.startsWith('\n\n') ? '' : tail.startsWith('\n') ? '\n' : '\n\n';
      onChange?.(`${head}${lead}![${alt}](${image.url})${trail}${tail}`);
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setUploading(false);
    }
  };

  const tool = (title: string, icon: React.ReactNode, run: () => void) => (
    <Tooltip title={title}>
      <Button size="small" type="text" icon={icon} aria-label={title} onClick={run} />
    </Tooltip>
  );

  return (
    <Row gutter={12}>
      <Col xs={24} lg={12}>
        <Space size={2} wrap style={{ marginBottom: 4 }}>
          {tool(t('heading'), <FontSizeOutlined />, () => lineStart('## '))}
          {tool(t('bold'), <BoldOutlined />, () => edit('**', '**', t('bold')))}
          {tool(t('italic'), <ItalicOutlined />, () => edit('_', '_', t('italic')))}
          {tool(t('link'), <LinkOutlined />, () => edit('[', '](https://)', t('linkText')))}
          {tool(t('code'), <CodeOutlined />, () => edit('`', '`', 'code'))}
          {tool(t('list'), <OrderedListOutlined />, () => lineStart('- '))}
          {tool(t('table'), <TableOutlined />, () => edit('\n| A | B |\n|---|---|\n| 1 | 2 |\n'))}
          <Upload
            accept="image/png,image/jpeg,image/gif,image/webp"
            showUploadList={false}
            beforeUpload={(file) => {
              void insertImage(file);
              return false;
            }}
          >
            <Tooltip title={`${t('image')} — ${t('imageHint')}`}>
              <Button size="small" type="text" icon={<PictureOutlined />} loading={uploading} aria-label={t('image')} />
            </Tooltip>
          </Upload>
        </Space>
        <Input.TextArea
          id={id}
          ref={area}
          value={value}
          onChange={(e) => onChange?.(e.target.value)}
          autoSize={{ minRows: 16, maxRows: 40 }}
          style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13 }}
          aria-label={t('markdown')}
          data-testid={`${testIdPrefix}-markdown`}
        />
      </Col>
      <Col xs={24} lg={12}>
        <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8, fontSize: 12 }}>
          {t('preview')} · {t('previewHint')}
        </Typography.Text>
        <Spin spinning={rendering} delay={300}>
          <div style={{ border: '1px solid rgba(128,128,128,0.25)', borderRadius: 6, padding: 12, minHeight: 360 }} data-testid={`${testIdPrefix}-preview`}>
            <HelpHtml html={html} />
          </div>
        </Spin>
      </Col>
    </Row>
  );
}
