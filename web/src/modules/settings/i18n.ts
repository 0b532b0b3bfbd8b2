import { registerTexts } from '../../shared/i18n/i18n.ts';

registerTexts('settings', {
  'zh-CN': {
    title: '系统设置',
    save: '保存',
    saved: '设置已保存',
    reload: '刷新',
    readOnly: '你可以查看设置，修改需要“修改系统设置”权限。',
    registration: {
      title: '用户注册',
      isEnabled: '开放注册',
      isEnabledHelp: '开放后，登录页显示“注册”入口，访客完成人机验证后可自行注册并立即登录。新安装默认关闭。',
      defaultRoles: '注册用户的默认角色',
      defaultRolesHelp: '新注册的用户自动获得这些角色（即角色管理中的“默认角色”）。管理员角色不能作为默认角色。',
      noRoles: '不分配角色',
    },
    passwordPolicy: {
      title: '密码策略',
      help: '用于注册、修改密码和管理员设置密码。',
      minLength: '最小长度',
      requiredClasses: '至少包含的字符类别数',
      requiredClassesHelp: '字符类别：大写字母、小写字母、数字、符号',
    },
  },
  'en-US': {
    title: 'System settings',
    save: 'Save',
    saved: 'Settings saved',
    reload: 'Refresh',
    readOnly: 'You can view the settings; changing them needs the "Change the system settings" permission.',
    registration: {
      title: 'Registration',
      isEnabled: 'Open registration',
      isEnabledHelp: 'When open, the login page shows a Register link; visitors who pass the verification register and are signed in at once. Off on a new installation.',
      defaultRoles: 'Default roles of registered users',
      defaultRolesHelp: 'New users get these roles (the roles marked "default" on the roles page). The administrator role cannot be one.',
      noRoles: 'No role',
    },
    passwordPolicy: {
      title: 'Password policy',
      help: 'Applies to registration, password changes and passwords set by administrators.',
      minLength: 'Minimum length',
      requiredClasses: 'Character classes required',
      requiredClassesHelp: 'Classes: upper case, lower case, digits, symbols',
    },
  },
});
