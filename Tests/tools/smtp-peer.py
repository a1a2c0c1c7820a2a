"""An SMTP server for the announce tests: aiosmtpd on 127.0.0.1 with STARTTLS required, AUTH required after it.

  smtp-peer.py serve CERT KEY USER PASSWORD OUTDIR   prints the port, keeps each message as OUTDIR/N.eml (with
                                                   N.json: the envelope, whether TLS was on, who logged in) until
                                                   standard input closes
  smtp-peer.py parse FILE                          prints the message as Python's email package reads it, as JSON
"""
import json
import socket
import ssl
import sys
from email import policy
from email.parser import BytesParser


def serve(cert, key, user, password, outdir):
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult, LoginPassword

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    received = []

    def authenticate(server, session, envelope, mechanism, data):
        ok = isinstance(data, LoginPassword) and data.login == user.encode() and data.password == password.encode()
        return AuthResult(success=ok, auth_data=user if ok else None)

    class Keep:
        async def handle_DATA(self, server, session, envelope):
            number = len(received) + 1
            received.append(number)
            with open(f"{outdir}/{number}.eml", "wb") as message:
                message.write(envelope.original_content)
            with open(f"{outdir}/{number}.json", "w") as note:
                json.dump({"from": envelope.mail_from, "to": envelope.rcpt_tos, "tls": session.ssl is not None,
                           "authenticated": bool(session.authenticated), "user": session.auth_data}, note)
            return "250 Message accepted"

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    controller = Controller(Keep(), hostname="127.0.0.1", port=port, tls_context=context, require_starttls=True,
                            authenticator=authenticate, auth_require_tls=True)
    controller.start()
    print(port, flush=True)
    sys.stdin.read()
    controller.stop()


def parse(path):
    with open(path, "rb") as file:
        message = BytesParser(policy=policy.default).parse(file)
    parts = [{"type": part.get_content_type(), "text": part.get_content()} for part in message.iter_parts()]
    headers = {name: str(value) for name, value in message.items()}
    print(json.dumps({"headers": headers, "contentType": message.get_content_type(), "parts": parts,
                      "defects": [str(defect) for defect in message.defects]}))


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(*sys.argv[2:7])
    else:
        parse(sys.argv[2])
