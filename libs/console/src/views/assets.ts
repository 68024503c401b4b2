/** The console's one stylesheet: served from the api itself, nothing from a CDN. */
export const CONSOLE_CSS = `
:root{--bg:#f6f7f9;--panel:#fff;--ink:#1c2430;--muted:#5b6675;--line:#dde2e8;--brand:#2f4bd8;--brand-ink:#fff;
--ok:#0f6b3a;--ok-bg:#e3f5ea;--wait:#7a4d00;--wait-bg:#fdf1d8;--bad:#a3231a;--bad-bg:#fde4e1;--neutral-bg:#eceff3}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:var(--bg)}
a{color:var(--brand)}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:6px;z-index:9}
.top{display:flex;align-items:center;justify-content:space-between;padding:0 24px;height:56px;background:#121a2b;color:#fff}
.brand{color:#fff;text-decoration:none;font-weight:650;letter-spacing:.2px}.brand span{font-weight:400;color:#b9c3d6}
.who{display:flex;gap:16px;align-items:center;font-size:14px}.who form{margin:0}
.who .link{color:#dfe5f1}
.frame{display:grid;grid-template-columns:220px minmax(0,1fr);min-height:calc(100vh - 56px)}
.frame.bare{grid-template-columns:1fr}
.side{background:var(--panel);border-right:1px solid var(--line);padding:16px 12px;display:flex;flex-direction:column;gap:2px}
.side a{display:block;padding:7px 10px;border-radius:6px;color:var(--ink);text-decoration:none}
.side a:hover{background:var(--bg)}.side a[aria-current=page]{background:#e6ebfb;color:#1a2f9c;font-weight:600}
.side-group{margin:14px 10px 4px;font-size:12px;text-transform:uppercase;letter-spacing:.6px;color:var(--muted);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
main{padding:28px 36px;max-width:1180px;width:100%;min-width:0;overflow-wrap:break-word}
h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:0 0 12px}h3{font-size:15px;margin:16px 0 8px}
.lead{color:var(--muted);margin:0 0 20px}.muted{color:var(--muted)}
.head{display:flex;justify-content:space-between;align-items:flex-start;gap:16px;margin-bottom:20px}
.card{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:20px;margin-bottom:20px}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:20px}
table{width:100%;border-collapse:collapse;background:var(--panel)}
th,td{text-align:left;padding:9px 10px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:12px;text-transform:uppercase;letter-spacing:.5px;color:var(--muted);font-weight:600}
tbody tr:hover{background:#fafbfd}
.table-wrap{background:var(--panel);border:1px solid var(--line);border-radius:10px;overflow:auto;margin-bottom:16px}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;overflow-wrap:anywhere}
.nowrap{white-space:nowrap}td.wide{min-width:240px}ul.plain{list-style:none;margin:0;padding:0}
.pill{display:inline-block;padding:1px 9px;border-radius:999px;font-size:12.5px;font-weight:600;white-space:nowrap}
.pill.ok{background:var(--ok-bg);color:var(--ok)}.pill.wait{background:var(--wait-bg);color:var(--wait)}
.pill.bad{background:var(--bad-bg);color:var(--bad)}.pill.neutral{background:var(--neutral-bg);color:#384252}
.badge{background:#3a4a75;color:#fff;border-radius:4px;padding:0 6px;font-size:12px}
form.inline{display:inline}
label{display:block;font-weight:600;font-size:14px;margin:0 0 4px}
.field{margin-bottom:14px}.hint{font-weight:400;color:var(--muted);font-size:13px}
input[type=text],input[type=email],input[type=password],input[type=url],input[type=search],select,textarea{width:100%;padding:8px 10px;border:1px solid #b8c1cc;border-radius:6px;font:inherit;background:#fff;color:var(--ink)}
textarea{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}
input:focus,select:focus,textarea:focus,button:focus,a:focus{outline:3px solid #9db0ff;outline-offset:1px}
.filters{display:flex;gap:12px;align-items:flex-end;flex-wrap:wrap;margin-bottom:16px}.filters .field{margin:0;min-width:160px}
button,.button{display:inline-block;border:1px solid var(--brand);background:var(--brand);color:var(--brand-ink);padding:8px 14px;border-radius:6px;font:inherit;font-weight:600;cursor:pointer;text-decoration:none;line-height:1.3}
button.secondary,.button.secondary{background:#fff;color:var(--brand)}
button.danger,.button.danger{background:var(--bad);border-color:var(--bad)}
button.link{background:none;border:0;padding:0;color:var(--brand);font-weight:400;text-decoration:underline}
.actions{display:flex;gap:10px;flex-wrap:wrap;align-items:center}
.notice{background:var(--ok-bg);color:var(--ok);border:1px solid #bfe3cc;padding:10px 14px;border-radius:8px;margin-bottom:18px}
.secret{background:#fffbe8;border:1px solid #f1d37a;border-radius:8px;padding:14px;margin-bottom:18px}
.secret code{display:block;word-break:break-all;font-size:14px;margin:8px 0}
.error-card{border-color:#f0b9b3}.error-card h1{color:var(--bad)}
.notice.bad{background:var(--bad-bg);color:var(--bad);border-color:#f0b9b3}.unit{font-size:16px}.grow{flex:1}.flush{margin:0}.inline-check{font-weight:400;display:inline-block;margin-right:14px}.break-all{word-break:break-all}.break-anywhere{overflow-wrap:anywhere}
.empty{border:1px dashed #c4ccd6;border-radius:10px;padding:28px;text-align:center;color:var(--muted);background:var(--panel);margin-bottom:16px}
.empty-title{font-weight:650;color:var(--ink);margin:0 0 6px;font-size:16px}
.meter{appearance:none;display:block;width:100%;height:10px;border:0;background:var(--neutral-bg);border-radius:999px;overflow:hidden;margin:8px 0}
.meter::-webkit-progress-bar{background:var(--neutral-bg)}.meter::-webkit-progress-value{background:var(--brand)}.meter::-moz-progress-bar{background:var(--brand)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:6px 18px;margin:0}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;min-width:0;overflow-wrap:anywhere}
.timeline{list-style:none;margin:0;padding:0}.timeline li{padding:8px 0 8px 16px;border-left:2px solid var(--line);position:relative}
.timeline li::before{content:"";position:absolute;left:-6px;top:14px;width:10px;height:10px;border-radius:50%;background:var(--brand)}
.pager{display:flex;justify-content:flex-end;gap:10px}
.signin{max-width:420px;margin:64px auto}
.signin .sso{display:block;text-align:center}.signin .or{text-align:center;margin:12px 0}
.stat{font-size:28px;font-weight:700}
.field-problem{color:var(--bad);font-size:13.5px;margin:4px 0 0}
.form-problems{background:var(--bad-bg);color:var(--bad);border:1px solid #f0b9b3;border-radius:8px;padding:10px 14px;margin-bottom:14px}
.form-problems ul{margin:6px 0 0;padding-left:20px}
table.editor td{padding:6px 8px;vertical-align:middle}table.editor caption{text-align:left;padding:10px;font-size:13.5px}
table.editor input[type=text]{width:100%;padding:6px 8px;border:1px solid #b8c1cc;border-radius:6px;font:13px ui-monospace,Menlo,Consolas,monospace}
table.editor select{width:auto;padding:6px}
.w-num{max-width:90px}.row-new{background:#fafbfd}.row-invalid{background:#fff6f5}
input[aria-invalid=true]{border-color:var(--bad)!important}
.inline-check{display:flex;gap:6px;align-items:center;font-weight:400;margin:0;white-space:nowrap}
.spaced{margin-top:10px}
fieldset.scopes{border:1px solid var(--line);border-radius:8px;padding:10px 14px;display:grid;grid-template-columns:repeat(auto-fill,minmax(190px,1fr));gap:6px 14px}
fieldset.scopes legend{font-weight:600;font-size:14px;padding:0 4px}
details.shards summary{cursor:pointer;font-size:13px}details.shards code{display:block;max-width:420px;margin-top:4px}
.phone-menu{display:none}
@media (max-width:640px){
.top{padding:0 14px}.who,.side{display:none}
.phone-menu{display:block;position:relative}
.phone-menu summary{cursor:pointer;list-style:none;color:#fff;border:1px solid #4a5878;border-radius:6px;padding:4px 12px;font-weight:600}
.phone-menu summary::-webkit-details-marker{display:none}
.menu-panel{position:absolute;right:0;top:44px;z-index:5;width:270px;max-height:80vh;overflow:auto;background:var(--panel);border:1px solid var(--line);border-radius:10px;box-shadow:0 8px 24px rgba(0,0,0,.18);padding:10px;display:flex;flex-direction:column;gap:2px}
.menu-panel a{display:block;padding:8px 10px;border-radius:6px;color:var(--ink);text-decoration:none}
.menu-panel a[aria-current=page]{background:#e6ebfb;color:#1a2f9c;font-weight:600}
.menu-panel form{margin:0;padding:6px 10px}
.frame{grid-template-columns:minmax(0,1fr)}
main{padding:16px 14px}
.head{flex-direction:column;gap:10px}
.card{padding:14px}
dl.facts{grid-template-columns:1fr;gap:2px}dl.facts dd{margin-bottom:8px}
th,td{padding:8px 6px}
.filters .field{min-width:0;flex:1 1 100%}
table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table.stack,table.stack tbody,table.stack tr,table.stack td{display:block;width:100%}
table.stack tr{border-bottom:1px solid var(--line);padding:6px 0}
table.stack td{min-width:0;border:0;padding:3px 12px 3px 104px;display:flow-root;white-space:normal;overflow-wrap:anywhere}table.stack td:empty{display:none}
table.stack td::before{content:attr(data-label);float:left;width:84px;margin:2px 0 0 -92px;font-size:11.5px;line-height:1.35;text-transform:uppercase;letter-spacing:.4px;color:var(--muted);font-weight:600;overflow-wrap:normal}
}
`;

/** Progressive enhancement only: every form works without it. */
export const CONSOLE_JS = `
document.addEventListener('click', function (event) {
  var button = event.target.closest && event.target.closest('[data-copy]');
  if (!button) return;
  var text = document.getElementById(button.getAttribute('data-copy')).textContent;
  navigator.clipboard.writeText(text).then(function () { button.textContent = 'Copied'; });
});
document.addEventListener('change', function (event) {
  if (event.target.matches && event.target.matches('[data-select-all]')) {
    document.querySelectorAll('input[name="' + event.target.getAttribute('data-select-all') + '"]').forEach(function (box) {
      box.checked = event.target.checked;
    });
  }
});
document.querySelectorAll('[data-copy]').forEach(function (b) { b.hidden = false; });
`;
