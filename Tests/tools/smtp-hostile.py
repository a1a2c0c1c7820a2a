"""An SMTP server that misbehaves on demand, for the announce tests: plain SMTP on 127.0.0.1, one thread a connection.

  smtp-hostile.py MODE OUTDIR   prints the port, then serves until standard input closes; each connection adds a
                                line to OUTDIR/connections, each message taken is kept as OUTDIR/N.eml

  MODE  hold-data   takes the message, then never replies to its end (".")
        hold-quit   accepts the message (250), then never replies to QUIT
        rcpt-550    refuses every recipient for good (550)
        strict      refuses a message with a line past RFC 5322's 998 characters (500), as real servers do
"""
import socket
import sys
import threading
import time


def handle(connection, mode, outdir, lock):
    with lock:
        with open(f"{outdir}/connections", "a") as log:
            log.write("connection\n")
    reader = connection.makefile("rb")

    def reply(line):
        connection.sendall(line.encode() + b"\r\n")

    def hold():
        # Silent until the client hangs up.
        while reader.readline():
            pass

    try:
        reply("220 hostile.example ESMTP")
        while True:
            line = reader.readline()
            if not line:
                return
            command = line.decode("latin-1").strip().upper()
            if command.startswith("EHLO") or command.startswith("HELO"):
                reply("250-hostile.example")
                reply("250 8BITMIME")
            elif command.startswith("MAIL"):
                reply("250 OK")
            elif command.startswith("RCPT"):
                reply("550 5.1.1 no such user" if mode == "rcpt-550" else "250 OK")
            elif command == "DATA":
                reply("354 go ahead")
                lines = []
                while True:
                    data = reader.readline()
                    if not data or data == b".\r\n":
                        break
                    lines.append(data)
                if mode == "hold-data":
                    hold()
                    return
                if mode == "strict" and any(len(data.rstrip(b"\r\n")) > 998 for data in lines):
                    reply("500 5.5.2 line too long")
                    continue
                with lock:
                    number = len([name for name in __import__("os").listdir(outdir) if name.endswith(".eml")]) + 1
                    with open(f"{outdir}/{number}.eml", "wb") as message:
                        message.write(b"".join(lines))
                reply("250 accepted")
            elif command == "QUIT":
                if mode == "hold-quit":
                    hold()
                    return
                reply("221 bye")
                return
            elif command == "RSET" or command == "NOOP":
                reply("250 OK")
            else:
                reply("502 not implemented")
    except OSError:
        pass
    finally:
        connection.close()


def main(mode, outdir):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    server.settimeout(0.2)
    print(server.getsockname()[1], flush=True)
    lock = threading.Lock()
    done = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    while not done.is_set():
        try:
            connection, _ = server.accept()
        except socket.timeout:
            continue
        threading.Thread(target=handle, args=(connection, mode, outdir, lock), daemon=True).start()
    server.close()
    time.sleep(0.05)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
