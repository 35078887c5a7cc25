#!/bin/sh
# Installs nginx for the IPACheckHTTPTests nginx tests when it is missing (Debian/Ubuntu: nginx-light, else nginx;
# macOS: Homebrew). The tests start their own nginx on 127.0.0.1 with a temporary config; nothing is enabled as a
# service. With CI=true the tests fail (not skip) when nginx is absent.
set -eu
for candidate in /usr/sbin/nginx /usr/bin/nginx /usr/local/sbin/nginx /usr/local/bin/nginx /opt/homebrew/bin/nginx; do
    if [ -x "$candidate" ]; then
        echo "nginx present: $candidate"
        exit 0
    fi
done
if command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    # Don't let the package start a system nginx on port 80.
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
    $SUDO chmod +x /usr/sbin/policy-rc.d
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nginx-light \
        || DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nginx
    $SUDO rm -f /usr/sbin/policy-rc.d
elif command -v brew >/dev/null 2>&1; then
    brew install nginx
else
    echo "ensure-nginx: no apt-get or brew; install nginx by hand" >&2
    exit 1
fi
