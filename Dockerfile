# syntax=docker/dockerfile:1
# SPDX-License-Identifier: MIT
# tracefsck in a container: built on Debian 12, run from an image that holds only the run-time
# libraries (libzstd1, zlib1g, liblzma5, libarchive13, libtraceevent1), as a non-root user, tracefsck as the entry point.
#   docker build -t tracefsck .
#   docker run --rm -v "$PWD:/data:ro" tracefsck check trace.dat
# The working directory is /data; exit statuses are tracefsck's (0 clean, 4 faults, 8 incomplete).

FROM debian:12 AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      cmake make gcc libc6-dev pkgconf libzstd-dev zlib1g-dev liblzma-dev libarchive-dev libtraceevent-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# The README's Install commands, without the tests (CMocka is not installed here anyway), building
# only what is installed, JOBS compilers at a time (docker build --build-arg JOBS=8 on a big host).
ARG JOBS=2
# Link-time optimisation on, as released; the suite's image test builds with LTO=OFF, for time.
ARG LTO=ON
RUN cmake --preset release -DTFK_BUILD_TESTS=OFF -DCMAKE_INTERPROCEDURAL_OPTIMIZATION="$LTO" \
 && cmake --build --preset release --parallel "$JOBS" --target tracefsck tracefsck_shared tracefsck_static man-faults completion \
 && cmake --install build/release --prefix /opt/tracefsck \
 && /opt/tracefsck/bin/tracefsck check examples/clean.v6.dat

FROM debian:12-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libzstd1 zlib1g liblzma5 libarchive13 libtraceevent1 \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 tracefsck \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --shell /usr/sbin/nologin tracefsck
COPY --from=build /opt/tracefsck/bin/tracefsck /usr/local/bin/tracefsck
COPY --from=build /opt/tracefsck/share/doc/tracefsck/LICENSE /usr/share/doc/tracefsck/LICENSE
COPY --from=build /opt/tracefsck/share/bash-completion/completions/tracefsck /usr/share/bash-completion/completions/tracefsck
USER 10001:10001
WORKDIR /data
ENTRYPOINT ["tracefsck"]
CMD ["--help"]
