#!/usr/bin/env bash
# Build the pbem image with podman and run it for real: a smoke check of deploy/Containerfile and
# the services of deploy/compose.yaml, on this machine, as root. Exits non-zero on any failure.
#
#   deploy/check-image.sh                 # from anywhere; about 6 minutes here (see deploy/README.md)
#
# What it does:
#   1. the base: `python:3.11-slim-bookworm` when a registry answers; otherwise (sandboxes, CI
#      machines without registry access) an equivalent built here — Debian 12 by debootstrap from
#      the Debian mirror, Python 3.11 and pip on PATH — imported as localhost/pbem-base:bookworm;
#   2. `podman build` of deploy/Containerfile from it (--format docker: OCI images drop HEALTHCHECK);
#   3. the compose setup by hand, on the host network: the image's trial mail server, a
#      PostgreSQL on loopback (Debian's postgresql, as the tests start it), `pbem db upgrade`,
#      `pbem serve` as its non-root user, `pbem health`, a game started with `pbem game new`,
#      its first mail read over IMAP, a reply sent over SMTP and its answer read back;
#   4. the image's own CMD (`pbem db upgrade && exec pbem serve`) on SQLite in a volume;
#   5. clean-up: containers, the PostgreSQL, and the whole podman storage (kept with KEEP=1).
#
# Everything podman stores lives in a work directory of its own (--root/--runroot), never in
# /var/lib/containers. Settings (environment):
#   WORK=DIR          work directory (default: a new one under /var/tmp); removed at the end
#   KEEP=1            keep WORK (storage, images, logs) for a look afterwards
#   BASE=IMAGE        use this base image instead of pulling or building one
#   ROOTFS_CACHE=DIR  keep the debootstrap rootfs tarball here and reuse it (saves ~2 minutes)
#   STORAGE_DRIVER=D  podman storage driver (default overlay; vfs where overlay mounts are refused)
#   MIRROR=URL        Debian mirror for debootstrap (default http://deb.debian.org/debian)
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
case "${1:-}" in
    -h|--help) usage; exit 0 ;;
    "") ;;
    *) echo "check-image.sh: no arguments expected (got '$1'); settings are environment variables, see --help" >&2; exit 2 ;;
esac

REPO=$(cd "$(dirname "$0")/.." && pwd)
REAL_BASE=python:3.11-slim-bookworm
LOCAL_BASE=localhost/pbem-base:bookworm
IMAGE=localhost/pbem-check:latest
MIRROR=${MIRROR:-http://deb.debian.org/debian}
STORAGE_DRIVER=${STORAGE_DRIVER:-overlay}
SECRET=check-image-secret-0123456789abcdef
MAIL_PASSWORD=check-image-mail
SMTP_PORT=2525
IMAP_PORT=1143
HEALTH_PORT=8025

die() { echo "check-image: FAILED: $*" >&2; exit 1; }
say() { printf '%s check-image: %s\n' "$(date -u +%H:%M:%S)" "$*"; }
[ "$(id -u)" = 0 ] || die "run as root (podman with its own storage, PostgreSQL as the postgres user)"
command -v podman >/dev/null || die "podman is not installed (Debian 12: apt-get install -y podman)"

WORK=${WORK:-$(mktemp -d /var/tmp/pbem-image.XXXXXX)}
mkdir -p "$WORK"
START=$(date +%s)
PG_PID=""
PG_DIR=""

# Resource limits: podman asks for RLIMIT_NOFILE/NPROC of 1048576, which needs CAP_SYS_RESOURCE
# (a sandbox refuses: "setrlimit RLIMIT_NOFILE: Operation not permitted"); ask for what this
# shell has instead (podman itself caps NPROC at 32768).
NOFILE=$(ulimit -Hn); [ "$NOFILE" = unlimited ] && NOFILE=1048576
NPROC=$(ulimit -Hu); { [ "$NPROC" = unlimited ] || [ "$NPROC" -gt 32768 ]; } && NPROC=32768
ULIMITS=(--ulimit "nofile=$NOFILE:$NOFILE" --ulimit "nproc=$NPROC:$NPROC")
# runc where installed: crun 1.8 refuses hybrid cgroup v1/v2 hosts ("cgroups in hybrid mode not
# supported"); RUNTIME=crun to choose otherwise.
RUNTIME=${RUNTIME:-$(command -v runc || true)}
PODMAN=(podman --root "$WORK/storage" --runroot "$WORK/run" --storage-driver "$STORAGE_DRIVER")
[ -n "$RUNTIME" ] && PODMAN+=(--runtime "$RUNTIME")
p() { "${PODMAN[@]}" "$@"; }

cleanup() {
    local rc=$?
    set +e
    for name in pbem-check-serve pbem-check-sqlite pbem-check-mail; do
        p rm -f -t 5 "$name" >/dev/null 2>&1
    done
    if [ -n "$PG_PID" ]; then  # SIGINT to the postmaster itself: runuser does not forward it
        [ -f "$PG_DIR/data/postmaster.pid" ] && kill -INT "$(head -1 "$PG_DIR/data/postmaster.pid")" 2>/dev/null
        wait "$PG_PID" 2>/dev/null
    fi
    [ -n "$PG_DIR" ] && rm -rf "$PG_DIR"
    if [ "${KEEP:-0}" = 1 ]; then
        say "kept $WORK (podman: ${PODMAN[*]})"
    else
        p rmi -a -f >/dev/null 2>&1
        p system reset -f >/dev/null 2>&1
        umount -R "$WORK/storage/overlay" 2>/dev/null
        rm -rf "${WORK:?}"
    fi
    if [ "$rc" = 0 ]; then say "PASSED in $(( $(date +%s) - START )) s"; else say "FAILED (exit $rc)"; fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# -- 1. the base --------------------------------------------------------------------------
# What debian:bookworm-slim (under python:3.11-slim-bookworm) sets up (debuerreotype's
# minimizing config and slimify), so a Containerfile's `apt-get install` costs here what it
# costs there: apt keeps no caches or .debs and fetches no translations; dpkg installs no
# documentation, manual pages or locales. ROOT is the new tree, never "/" (refused).
slim() {
    local root=${1:?slim: no root}
    case "$(readlink -f "$root")" in /|"") die "slim: refusing to slim '$root'" ;; esac
    [ -f "$root/etc/debian_version" ] && [ -d "$root/usr/local/python" ] || die "slim: $root is not the new base"
    local clean='"rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true";'
    printf 'DPkg::Post-Invoke { %s };\nAPT::Update::Post-Invoke { %s };\nDir::Cache::pkgcache "";\nDir::Cache::srcpkgcache "";\n' \
        "$clean" "$clean" > "$root/etc/apt/apt.conf.d/docker-clean"
    echo 'Acquire::Languages "none";' > "$root/etc/apt/apt.conf.d/docker-no-languages"
    echo 'Acquire::GzipIndexes "true";' > "$root/etc/apt/apt.conf.d/docker-gzip-indexes"
    echo 'force-unsafe-io' > "$root/etc/dpkg/dpkg.cfg.d/docker-apt-speedup"
    printf '%s\n' 'path-exclude /usr/share/doc/*' 'path-include /usr/share/doc/*/copyright' \
        'path-exclude /usr/share/groff/*' 'path-exclude /usr/share/info/*' 'path-exclude /usr/share/linda/*' \
        'path-exclude /usr/share/lintian/overrides/*' 'path-exclude /usr/share/locale/*' \
        'path-exclude /usr/share/man/*' > "$root/etc/dpkg/dpkg.cfg.d/docker"
    find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
    find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete
    local dir
    for dir in groff info linda lintian/overrides locale man; do
        [ -d "$root/usr/share/$dir" ] && find "$root/usr/share/$dir" -mindepth 1 -delete
    done
    rm -rf "${root:?}"/var/lib/apt/lists/* "${root:?}"/var/cache/apt/*.bin "${root:?}"/var/cache/apt/archives/*.deb
    find "$root/usr/local/python" -name __pycache__ -type d -prune -exec rm -rf {} +
}

build_local_base() {
    command -v debootstrap >/dev/null || die "no registry and no debootstrap (apt-get install -y debootstrap)"
    local tarball="$WORK/rootfs.tar"
    if [ -n "${ROOTFS_CACHE:-}" ] && [ -f "$ROOTFS_CACHE/pbem-base-rootfs.tar" ]; then
        say "base: reusing $ROOTFS_CACHE/pbem-base-rootfs.tar"
        tarball="$ROOTFS_CACHE/pbem-base-rootfs.tar"
    else
        say "base: debootstrap bookworm (minbase) from $MIRROR"
        local root="$WORK/rootfs"
        debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates,netbase,tzdata \
            bookworm "$root" "$MIRROR" > "$WORK/debootstrap.log" 2>&1 \
            || { tail -20 "$WORK/debootstrap.log" >&2; die "debootstrap"; }
        # What python:3.11-slim-bookworm gives a Containerfile: `python` and `pip` on PATH that
        # install into their own site-packages (a venv, as Debian's python3 refuses pip installs
        # into /usr), the security updates, and pip trusting the system CA store.
        chroot "$root" python3 -m venv /usr/local/python
        cat > "$root/etc/apt/sources.list" <<EOF
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
        printf '[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n' > "$root/etc/pip.conf"
        slim "$root"
        tar -C "$root" -cf "$tarball" .
        rm -rf "$root"
        if [ -n "${ROOTFS_CACHE:-}" ]; then mkdir -p "$ROOTFS_CACHE" && cp "$tarball" "$ROOTFS_CACHE/pbem-base-rootfs.tar"; fi
    fi
    p import \
        --change 'ENV PATH=/usr/local/python/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'ENV LANG=C.UTF-8' --change 'CMD ["python3"]' \
        "$tarball" "$LOCAL_BASE" >/dev/null 2>"$WORK/import.log" || { cat "$WORK/import.log" >&2; die "podman import"; }
    BASE=$LOCAL_BASE
}

T0=$(date +%s)
if [ -n "${BASE:-}" ]; then
    say "base: $BASE (given)"
elif timeout 60 "${PODMAN[@]}" pull -q "docker.io/library/$REAL_BASE" >"$WORK/pull.log" 2>&1; then
    BASE=docker.io/library/$REAL_BASE
    say "base: $BASE (pulled)"
else
    say "base: $REAL_BASE cannot be pulled ($(tail -1 "$WORK/pull.log" | cut -c1-120))"
    build_local_base
fi
T_BASE=$(( $(date +%s) - T0 ))

# -- 2. the image -------------------------------------------------------------------------
# The host's CA bundle is mounted for the build only (pip and apt behind an intercepting proxy
# need its CA); nothing of it stays in the image.
BUILD_VOLUMES=()
[ -f /etc/ssl/certs/ca-certificates.crt ] \
    && BUILD_VOLUMES=(--volume /etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro)
say "image: podman build -f deploy/Containerfile --build-arg BASE=$BASE (log: $WORK/build.log)"
T0=$(date +%s)
p build --format docker --network host "${ULIMITS[@]}" "${BUILD_VOLUMES[@]}" --build-arg "BASE=$BASE" \
    -f "$REPO/deploy/Containerfile" -t "$IMAGE" "$REPO" > "$WORK/build.log" 2>&1 \
    || { tail -30 "$WORK/build.log" >&2; die "podman build"; }
T_BUILD=$(( $(date +%s) - T0 ))
SIZE=$(p image inspect --format '{{.Size}}' "$IMAGE")
say "image: built in ${T_BUILD} s, $(( SIZE / 1000000 )) MB"
[ "$(p image inspect --format '{{.Config.User}}' "$IMAGE")" = pbem ] || die "the image's USER is not pbem"
p image inspect --format '{{json .Config.Healthcheck}}' "$IMAGE" | grep -q '"pbem","health"' \
    || die "the image has no HEALTHCHECK pbem health (built as OCI?)"

run() { p run --rm --network host --no-healthcheck "${ULIMITS[@]}" "$@"; }

# -- 3. compose's services by hand: mail, db, migrate, pbem ------------------------------------
say "mail: the image's trial mail server (compose service 'mail') on 127.0.0.1:$IMAP_PORT/$SMTP_PORT"
p run -d --name pbem-check-mail --network host "${ULIMITS[@]}" --no-healthcheck "$IMAGE" \
    pbem mailserver --host=127.0.0.1 --smtp-port=$SMTP_PORT --imap-port=$IMAP_PORT --domain=pbem.test \
    --auto-create "--user=play@pbem.test:$MAIL_PASSWORD" >/dev/null

say "db: PostgreSQL on loopback (as tests/support/postgres.py starts it)"
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$PG_BIN/initdb" ] || die "PostgreSQL is not installed (apt-get install -y postgresql)"
PG_DIR=$(mktemp -d /dev/shm/pbem-check-pg.XXXXXX)
chown postgres:postgres "$PG_DIR"
PG_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
PG_PASSWORD=check-image-db
echo "$PG_PASSWORD" > "$PG_DIR/pw" && chown postgres "$PG_DIR/pw"
runuser -u postgres -- "$PG_BIN/initdb" -D "$PG_DIR/data" -A scram-sha-256 -U pbem --pwfile="$PG_DIR/pw" >/dev/null
runuser -u postgres -- "$PG_BIN/postgres" -D "$PG_DIR/data" -c listen_addresses=127.0.0.1 -p "$PG_PORT" \
    -k "$PG_DIR" -c fsync=off > "$WORK/postgres.log" 2>&1 &
PG_PID=$!
for _ in $(seq 100); do "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" && break; sleep 0.1; done
"$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" || die "PostgreSQL did not start ($WORK/postgres.log)"
PGPASSWORD=$PG_PASSWORD "$PG_BIN/psql" -q -h 127.0.0.1 -p "$PG_PORT" -U pbem -d postgres -c 'CREATE DATABASE pbem'

ENVS=(-e "PBEM_DATABASE_URL=postgresql+psycopg://pbem:$PG_PASSWORD@127.0.0.1:$PG_PORT/pbem"
      -e "PBEM_SECRET=$SECRET" -e PBEM_SERVICE_ADDRESS=play@pbem.test
      -e PBEM_IMAP_HOST=127.0.0.1 -e "PBEM_IMAP_PORT=$IMAP_PORT" -e PBEM_IMAP_SSL=false
      -e PBEM_IMAP_USER=play@pbem.test -e "PBEM_IMAP_PASSWORD=$MAIL_PASSWORD"
      -e PBEM_SMTP_HOST=127.0.0.1 -e "PBEM_SMTP_PORT=$SMTP_PORT"
      -e PBEM_HEALTH_HOST=127.0.0.1 -e "PBEM_HEALTH_PORT=$HEALTH_PORT"
      -e PBEM_POLL_INTERVAL_SECONDS=2 -e PBEM_OUTBOX_INTERVAL_SECONDS=1)

say "migrate: pbem db upgrade (compose service 'migrate')"
run "${ENVS[@]}" "$IMAGE" pbem db upgrade | tee "$WORK/migrate.log"
grep -q "database at revision" "$WORK/migrate.log" || die "pbem db upgrade said no revision"
run "${ENVS[@]}" "$IMAGE" pbem db upgrade | grep -q "database at revision" || die "a second pbem db upgrade"

say "pbem: pbem serve (compose service 'pbem')"
p run -d --name pbem-check-serve --network host "${ULIMITS[@]}" "${ENVS[@]}" "$IMAGE" pbem serve >/dev/null 2>>"$WORK/podman.log"
wait_healthy() {  # NAME: `pbem health` inside the container, as the HEALTHCHECK runs it
    for _ in $(seq 60); do
        p exec "$1" pbem health > "$WORK/health-$1.log" 2>&1 && return 0
        sleep 1
    done
    cat "$WORK/health-$1.log" >&2; p logs "$1" 2>&1 | tail -20 >&2
    die "$1: pbem health never answered healthy"
}
wait_healthy pbem-check-serve
say "pbem: healthy: $(tr '\n' ' ' < "$WORK/health-pbem-check-serve.log")"
p healthcheck run pbem-check-serve > /dev/null 2>&1 || die "podman healthcheck run (the image's HEALTHCHECK) failed"
USERS=$(p top pbem-check-serve user comm | awk 'NR > 1 {print $1}' | sort -u | tr '\n' ' ')
[ "$USERS" = "pbem " ] || die "processes of pbem serve run as: $USERS (expected only pbem)"
[ "$(p exec pbem-check-serve id -u)" = 10001 ] || die "the container's user is not uid 10001"

say "play: pbem game new tagteam (alice, bob), the first mail, a reply, its answer"
p exec "${ENVS[@]}" pbem-check-serve pbem game new tagteam --seed 1 \
    --player alice@pbem.test --player bob@pbem.test | tee "$WORK/game.log"
run -v "$REPO/deploy/smoke_mail.py:/smoke_mail.py:ro" "$IMAGE" \
    python /smoke_mail.py --imap-port "$IMAP_PORT" --smtp-port "$SMTP_PORT" \
    || { p logs pbem-check-serve 2>&1 | tail -30 >&2; die "the game by mail"; }
p exec "${ENVS[@]}" pbem-check-serve pbem status --check > "$WORK/status.log" 2>&1 \
    || { cat "$WORK/status.log" >&2; die "pbem status --check"; }
p logs pbem-check-serve 2>&1 | grep -q ": applied" || die "no 'applied' line in the log of pbem serve"

say "stop: SIGTERM, exit 0"
p stop -t 60 pbem-check-serve >/dev/null 2>>"$WORK/podman.log"
[ "$(p inspect --format '{{.State.ExitCode}}' pbem-check-serve)" = 0 ] || die "pbem serve did not exit 0 on SIGTERM"

# -- 4. the image's own CMD on SQLite in a volume -------------------------------------------
say "cmd: the image's CMD (db upgrade && serve) on SQLite in a volume"
p run -d --name pbem-check-sqlite --network host "${ULIMITS[@]}" -v pbem-check-data:/data \
    -e "PBEM_SECRET=$SECRET" -e PBEM_SERVICE_ADDRESS=play@pbem.test \
    -e PBEM_IMAP_HOST=127.0.0.1 -e "PBEM_IMAP_PORT=$IMAP_PORT" -e PBEM_IMAP_SSL=false \
    -e PBEM_IMAP_USER=play@pbem.test -e "PBEM_IMAP_PASSWORD=$MAIL_PASSWORD" \
    -e PBEM_SMTP_HOST=127.0.0.1 -e "PBEM_SMTP_PORT=$SMTP_PORT" "$IMAGE" >/dev/null 2>>"$WORK/podman.log"
wait_healthy pbem-check-sqlite
p exec pbem-check-sqlite ls -l /data/pbem.sqlite3 | grep -q '^-rw.* pbem pbem ' \
    || die "the SQLite database in /data is not pbem's"
p stop -t 60 pbem-check-sqlite >/dev/null 2>>"$WORK/podman.log"
[ "$(p inspect --format '{{.State.ExitCode}}' pbem-check-sqlite)" = 0 ] || die "the image's CMD did not exit 0"

say "figures: base ${T_BASE} s, build ${T_BUILD} s, image $(( SIZE / 1000000 )) MB"
