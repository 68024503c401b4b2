/**
 * The embeddable connect widget, served as /widget.js. Plain ES5-style browser JavaScript kept in a string
 * so it ships inside the build with no bundler; it must contain no backticks and no dollar-brace pairs.
 */
export const WIDGET_JS = String.raw`/* Custom domain connect widget: dependency-free, renders into a shadow root so the host page's CSS
   neither leaks in nor out. Usage:
     <script src="https://api.example.com/widget.js"></script>
     <script>CustomDomainWidget.mount(document.getElementById('connect'), { token: 'cs_...' });</script> */
(function (global) {
  'use strict';
  if (global.CustomDomainWidget) return;

  var scriptSrc = (document.currentScript && document.currentScript.src) || '';
  var defaultApiBase = scriptSrc ? new URL(scriptSrc, location.href).origin : location.origin;

  var STATUS = {
    unknown: { tone: 'wait', label: 'Waiting for DNS' },
    dns_not_resolving: { tone: 'todo', label: 'DNS record not found' },
    dns_incorrect: { tone: 'warn', label: 'DNS points elsewhere' },
    pending_ssl: { tone: 'wait', label: 'Issuing certificate' },
    active_ssl: { tone: 'ok', label: 'Connected' },
    target_not_loading: { tone: 'warn', label: 'Site not loading' },
    ssl_failed: { tone: 'bad', label: 'Certificate failed' },
    ssl_expired: { tone: 'bad', label: 'Certificate expired' },
    ready_to_switch: { tone: 'ok', label: 'Ready to switch' }
  };
  var PROVIDERS = [
    { id: 'cloudflare', name: 'Cloudflare', hint: 'An API token with Zone:Read and DNS:Edit on this zone.' },
    { id: 'digitalocean', name: 'DigitalOcean', hint: 'A personal access token with read and write access to domains.' }
  ];

  var CSS = [
    ':host{all:initial;display:block;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933}',
    '*{box-sizing:border-box}',
    '.card{border:1px solid #d9e2ec;border-radius:12px;background:#fff;padding:20px 22px;max-width:760px}',
    'h2{font-size:18px;margin:0 0 2px}h3{font-size:14px;margin:20px 0 8px;text-transform:uppercase;letter-spacing:.04em;color:#52606d}',
    '.sub{color:#52606d;margin:0}.host{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;word-break:break-all}',
    '.status{display:flex;align-items:center;gap:12px;flex-wrap:wrap;margin:16px 0 4px;padding:12px 14px;border-radius:10px;background:#f5f7fa}',
    '.badge{display:inline-flex;align-items:center;gap:6px;font-weight:600;border-radius:999px;padding:2px 10px;font-size:13px}',
    '.badge::before{content:"";width:8px;height:8px;border-radius:50%;background:currentColor}',
    '.tone-ok{background:#e3f9e5;color:#1f7a33}.tone-wait{background:#fff8e1;color:#8a6100}.tone-todo{background:#e6f0ff;color:#1b4fbf}',
    '.tone-warn{background:#fff1e6;color:#a14a00}.tone-bad{background:#ffe8e8;color:#b42318}',
    '.msg{flex:1 1 200px}.checked{color:#5b6675;font-size:12px;width:100%}',
    'table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:8px 6px;border-bottom:1px solid #e4e7eb;vertical-align:middle}',
    'th{font-size:12px;color:#52606d;font-weight:600}td code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px;word-break:break-all}',
    '.cell{display:flex;align-items:center;gap:10px;flex-wrap:wrap}',
    'button,.button{font:inherit;font-weight:600;border-radius:8px;border:1px solid #bcccdc;background:#fff;color:#1f2933;padding:6px 12px;cursor:pointer;text-decoration:none;display:inline-block}',
    'button:hover,.button:hover{background:#f0f4f8}button[disabled]{opacity:.6;cursor:default}',
    '.primary{background:#2563eb;border-color:#2563eb;color:#fff}.primary:hover{background:#1d4ed8}',
    '.copy{font-size:12px;padding:3px 9px}',
    'button:focus-visible,.button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #93b4ff;outline-offset:2px}',
    'ol,ul{margin:0;padding-left:22px}li{margin:4px 0;overflow-wrap:anywhere}.quirks li{color:#7c2d12}',
    'td.type code{word-break:normal;white-space:nowrap}.why{margin-top:8px}',
    '.dc{margin-top:16px;padding:14px;border:1px dashed #93b4ff;border-radius:10px;background:#f5f8ff}',
    'form{display:grid;grid-template-columns:minmax(140px,200px) 1fr auto;gap:10px;align-items:end}',
    'label{display:block;font-size:12px;font-weight:600;color:#52606d;margin-bottom:4px}',
    'input,select,form button{height:36px}',
    'input,select{font:inherit;width:100%;padding:6px 8px;border:1px solid #bcccdc;border-radius:8px;background:#fff;color:inherit}',
    '.hint{font-size:12px;color:#5b6675;margin:6px 0 0}.result{margin-top:8px}.error{color:#b42318}.success{color:#1f7a33}',
    '.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}',
    '@media (max-width:560px){form{grid-template-columns:1fr}}'
  ].join('\n');

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      var value = attrs[key];
      if (value === undefined || value === null || value === false) return;
      if (key === 'text') node.textContent = value;
      else if (key.slice(0, 2) === 'on') node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? '' : String(value));
    });
    (children || []).forEach(function (child) {
      if (child) node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  }

  /** The claims of a session token (readable; the server verifies the signature), or undefined when it has none. */
  function claimsOf(token) {
    try {
      var payload = String(token).replace(/^cs_/, '').split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
      var claims = JSON.parse(atob(payload));
      return claims && typeof claims.dom === 'string' && claims.dom ? claims : undefined;
    } catch (e) {
      return undefined;
    }
  }

  var INVALID_LINK = 'This connect link is not valid: it may be incomplete or changed. Ask for a new one.';
  var EXPIRED_LINK = 'This connect link has expired. Ask for a new one.';

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    var area = el('textarea', { style: 'position:fixed;opacity:0' });
    area.value = text;
    document.body.appendChild(area);
    area.select();
    try { document.execCommand('copy'); } finally { document.body.removeChild(area); }
    return Promise.resolve();
  }

  function Widget(element, options) {
    if (!element) throw new Error('CustomDomainWidget.mount: pass the element to render into');
    if (!options || !options.token) throw new Error('CustomDomainWidget.mount: pass { token } (a connect-session token)');
    this.token = options.token;
    this.apiBase = (options.apiBase || defaultApiBase).replace(/\/+$/, '');
    this.claims = claimsOf(options.token);
    this.domainId = options.domainId || (this.claims && this.claims.dom);
    this.options = options;
    this.pollMs = Math.max(10, options.pollSeconds || 30) * 1000;
    this.root = element.shadowRoot || element.attachShadow({ mode: 'open' });
    this.state = { domain: null, instructions: null, error: null, checking: false };
    this.timer = null;
    this.delay = this.pollMs;
    this.onVisibility = this.schedule.bind(this);
    document.addEventListener('visibilitychange', this.onVisibility);
    this.load();
  }

  Widget.prototype.api = function (method, path, body) {
    var url = this.apiBase + '/v1/domains/' + encodeURIComponent(this.domainId) + path;
    var init = { method: method, headers: { authorization: 'Bearer ' + this.token } };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch(url, init).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (json) {
        if (!res.ok) {
          var error = new Error(json.message || 'Request failed (' + res.status + ')');
          error.status = res.status;
          error.code = json.error;
          throw error;
        }
        return json;
      });
    });
  };

  Widget.prototype.load = function () {
    var self = this;
    // A token that names no domain is not one of ours: say so, and call nothing (no /v1/domains/undefined).
    if (!self.domainId) {
      self.state.error = INVALID_LINK;
      self.render();
      return Promise.resolve();
    }
    var query = self.options.redirectUri ? '?redirect_uri=' + encodeURIComponent(self.options.redirectUri) : '';
    return Promise.all([
      self.api('GET', ''),
      self.api('GET', '/instructions' + query).catch(function () { return null; })
    ]).then(function (results) {
      self.state.domain = results[0].domain;
      self.state.instructions = results[1] && results[1].instructions;
      self.state.error = null;
      self.render();
      self.schedule();
    }, function (error) {
      self.state.error = error.status === 401 ? self.refusedLink() : error.message;
      self.render();
    });
  };

  /** A refused token: expired when its own expiry has passed, else not valid (forged, cut short, revoked key). */
  Widget.prototype.refusedLink = function () {
    var exp = this.claims && this.claims.exp;
    return typeof exp === 'number' && exp * 1000 <= Date.now() ? EXPIRED_LINK : INVALID_LINK;
  };

  Widget.prototype.setDomain = function (domain) {
    var before = this.state.domain && this.state.domain.monitorStatus;
    this.state.domain = domain;
    this.renderStatus();
    if (before !== domain.monitorStatus && typeof this.options.onStatusChange === 'function') {
      this.options.onStatusChange(domain);
    }
  };

  /** Polls politely: only while visible and not yet live, backing off up to five minutes. */
  Widget.prototype.schedule = function () {
    var self = this;
    clearTimeout(self.timer);
    var domain = self.state.domain;
    if (!domain || domain.monitorStatus === 'active_ssl' || document.hidden || self.destroyed) return;
    self.timer = setTimeout(function () {
      self.api('GET', '').then(function (json) {
        self.setDomain(json.domain);
      }, function () {}).then(function () {
        self.delay = Math.min(self.delay * 2, 300000);
        self.schedule();
      });
    }, self.delay);
  };

  Widget.prototype.checkNow = function () {
    var self = this;
    if (self.state.checking) return;
    self.state.checking = true;
    self.renderStatus();
    self.api('POST', '/check').then(function (json) {
      self.state.checking = false;
      self.delay = self.pollMs;
      self.setDomain(json.domain);
      self.schedule();
    }, function (error) {
      self.state.checking = false;
      self.renderStatus(error.status === 429 ? 'Checked too often: wait a minute and try again.' : error.message);
    });
  };

  Widget.prototype.records = function () {
    var instructions = this.state.instructions;
    return instructions && instructions.records && instructions.records.length
      ? instructions.records
      : this.state.domain.dnsRecords;
  };

  Widget.prototype.render = function () {
    var self = this;
    var root = self.root;
    while (root.firstChild) root.removeChild(root.firstChild);
    root.appendChild(el('style', { text: CSS }));
    var card = el('section', { class: 'card', 'aria-label': 'Connect your domain' });
    root.appendChild(card);
    if (self.state.error) {
      card.appendChild(el('h2', { text: 'Connect your domain' }));
      card.appendChild(el('p', { class: 'error', role: 'alert', text: self.state.error }));
      return;
    }
    var domain = self.state.domain;
    var ins = self.state.instructions;
    card.appendChild(el('h2', {}, ['Connect ', el('span', { class: 'host', text: domain.hostname })]));
    var provider = ins && ins.provider && ins.provider.detected ? ins.provider.name : null;
    var what = self.records().length > 1 ? 'the records below' : 'the record below';
    // Bought through the SaaS on our registrar's DNS: the records are written already, nothing to ask for.
    var managed = !!domain.registrarDns;
    card.appendChild(el('p', { class: 'sub', text: managed
      ? 'We set up the DNS for you: the domain was bought through us, and its records are in place at our registrar. Nothing to add.'
      : provider
        ? 'Your DNS is hosted at ' + provider + '. Add ' + what + ' there, or let us do it for you.'
        : 'Add ' + what + ' at the company that hosts your DNS (often where you bought the domain).' }));

    self.statusNode = el('div', { class: 'status' });
    card.appendChild(self.statusNode);
    self.renderStatus();
    if (managed) {
      card.appendChild(el('h3', { id: 'cdw-records', text: 'DNS records we set up' }));
      card.appendChild(self.recordsTable());
      return;
    }

    var dc = ins && ins.domainConnect;
    if (dc && dc.supported && dc.applyUrl) {
      card.appendChild(el('div', { class: 'dc' }, [
        el('p', { class: 'sub', text: 'Fastest: approve the change at ' + (dc.providerDisplayName || dc.providerName || provider || 'your provider') + ' in one click.' }),
        el('p', {}, [el('a', { class: 'button primary', href: dc.applyUrl, target: '_blank', rel: 'noopener', text: 'Connect automatically' })])
      ]));
    }

    card.appendChild(el('h3', { id: 'cdw-records', text: 'DNS record' + (self.records().length > 1 ? 's' : '') }));
    card.appendChild(self.recordsTable());

    var steps = ins && ins.steps && ins.steps.length ? ins.steps : [
      'Sign in to the company that hosts your DNS and open the DNS settings of your domain.',
      'Add the record above exactly as shown (remove any other A, AAAA or CNAME record at the same name).',
      'Save, then come back and press "Check now". Changes usually appear within minutes.'
    ];
    card.appendChild(el('h3', { text: 'Steps' }));
    card.appendChild(el('ol', {}, steps.map(function (s) { return el('li', { text: s }); })));
    if (ins && ins.dashboardUrl) {
      card.appendChild(el('p', {}, [el('a', { href: ins.dashboardUrl, target: '_blank', rel: 'noopener', text: 'Open your DNS settings' })]));
    }
    if (ins && ins.quirks && ins.quirks.length) {
      card.appendChild(el('h3', { text: 'Good to know' }));
      card.appendChild(el('ul', { class: 'quirks' }, ins.quirks.map(function (q) { return el('li', { text: q }); })));
    }
    card.appendChild(self.applyForm(ins && ins.provider && ins.provider.id));
  };

  Widget.prototype.recordsTable = function () {
    var self = this;
    var live = el('span', { class: 'sr', 'aria-live': 'polite' });
    function cell(label, value) {
      var button = el('button', { type: 'button', class: 'copy', 'aria-label': 'Copy ' + label, text: 'Copy' });
      button.addEventListener('click', function () {
        copyText(value).then(function () {
          button.textContent = 'Copied';
          live.textContent = label + ' copied';
          setTimeout(function () { button.textContent = 'Copy'; }, 1500);
        });
      });
      return el('td', {}, [el('div', { class: 'cell' }, [el('code', { text: value }), button])]);
    }
    var rows = self.records().map(function (r) {
      return el('tr', {}, [
        el('td', { class: 'type' }, [el('code', { text: r.type })]),
        cell(r.type + ' name', r.name),
        cell(r.type + ' value', r.value),
        el('td', { text: String(r.ttl) })
      ]);
    });
    var table = el('table', { 'aria-labelledby': 'cdw-records' }, [
      el('thead', {}, [el('tr', {}, ['Type', 'Name', 'Value', 'TTL'].map(function (h) { return el('th', { scope: 'col', text: h }); }))]),
      el('tbody', {}, rows)
    ]);
    var delegation = self.records().filter(function (r) { return r.purpose === 'certificate'; })[0];
    var why = delegation && el('p', { class: 'sub why', text: self.state.domain.hostname.indexOf('*.') === 0
      ? 'The ' + delegation.name + ' record is required: your wildcard certificate is issued and renewed through it.'
      : 'The ' + delegation.name + ' record lets us issue your certificate before you switch, so HTTPS works from the first visit, and renew it without touching your DNS again.' });
    return el('div', {}, [table, why || null, live]);
  };

  Widget.prototype.renderStatus = function (problem) {
    var self = this;
    var node = self.statusNode;
    if (!node) return;
    var domain = self.state.domain;
    var info = STATUS[domain.monitorStatus] || { tone: 'wait', label: domain.monitorStatus };
    while (node.firstChild) node.removeChild(node.firstChild);
    var live = el('div', { class: 'msg', role: 'status', 'aria-live': 'polite', 'data-status': domain.monitorStatus }, [
      el('span', { class: 'badge tone-' + info.tone, text: info.label }), ' ',
      el('span', { text: problem || domain.monitorMessage })
    ]);
    node.appendChild(live);
    node.appendChild(el('button', {
      type: 'button', class: 'primary', disabled: self.state.checking,
      'aria-busy': self.state.checking ? 'true' : null,
      text: self.state.checking ? 'Checking…' : 'Check now',
      onclick: function () { self.checkNow(); }
    }));
    if (domain.lastCheckedAt) {
      node.appendChild(el('span', { class: 'checked', text: 'Last checked ' + new Date(domain.lastCheckedAt).toLocaleTimeString() }));
    }
  };

  /** The customer's DNS token goes to the API in this one request and is cleared from the form at once. */
  Widget.prototype.applyForm = function (detected) {
    var self = this;
    var uid = 'cdw' + Math.random().toString(36).slice(2, 8);
    var select = el('select', { id: uid + '-p', name: 'provider' }, PROVIDERS.map(function (p) {
      return el('option', { value: p.id, selected: p.id === detected, text: p.name });
    }));
    var input = el('input', { id: uid + '-t', name: 'token', type: 'password', autocomplete: 'off', spellcheck: 'false', required: true });
    var hint = el('p', { class: 'hint', id: uid + '-h' });
    var result = el('div', { class: 'result', role: 'alert' });
    var submit = el('button', { type: 'submit', class: 'primary', text: 'Apply records' });
    input.setAttribute('aria-describedby', uid + '-h');
    function updateHint() {
      hint.textContent = PROVIDERS.filter(function (p) { return p.id === select.value; })[0].hint + ' It is used once and never stored.';
    }
    select.addEventListener('change', updateHint);
    updateHint();
    var form = el('form', { 'aria-label': 'Apply the records with my DNS provider token' }, [
      el('div', {}, [el('label', { for: uid + '-p', text: 'DNS provider' }), select]),
      el('div', {}, [el('label', { for: uid + '-t', text: 'API token' }), input]),
      submit
    ]);
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var token = input.value.trim();
      if (!token) return;
      input.value = '';
      submit.disabled = true;
      submit.textContent = 'Applying…';
      result.className = 'result';
      result.textContent = '';
      self.api('POST', '/dns/apply', { provider: select.value, token: token }).then(function (json) {
        var applied = json.applied;
        result.className = 'result success';
        var n = applied.written.length;
        result.textContent = 'Done: ' + (n === 1 ? 'the record is' : n + ' records are') + ' in place' +
          (applied.removed ? ' and ' + applied.removed + ' conflicting record' + (applied.removed === 1 ? ' was' : 's were') + ' removed.' : '.') +
          ' We check it now and keep checking.';
        self.delay = self.pollMs;
        self.setDomain(json.domain);
        self.schedule();
      }, function (error) {
        result.className = 'result error';
        result.textContent = error.message;
      }).then(function () {
        submit.disabled = false;
        submit.textContent = 'Apply records';
      });
    });
    var wrap = el('div', {}, [el('h3', { text: 'Or let us add it with your DNS provider' }), form, hint, result]);
    return wrap;
  };

  Widget.prototype.refresh = function () { return this.load(); };
  Widget.prototype.destroy = function () {
    this.destroyed = true;
    clearTimeout(this.timer);
    document.removeEventListener('visibilitychange', this.onVisibility);
    while (this.root.firstChild) this.root.removeChild(this.root.firstChild);
  };

  global.CustomDomainWidget = {
    version: '1',
    mount: function (element, options) {
      var target = typeof element === 'string' ? document.querySelector(element) : element;
      return new Widget(target, options);
    }
  };
})(window);
`;
