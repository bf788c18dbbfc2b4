/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_fingerprint.c - the MPI-free fingerprint (ct_fingerprint.h): the
 * variables kept and the volatile ones dropped, the loaded libraries with
 * build ids (one dlopened here), the host facts from a fake root, and the
 * canonical text: a digest that moves with one variable, and a text that
 * reads back to itself.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ct_fingerprint.h"
#include "ct_test.h"

static ct_test_tally_t tally;

static const char *env_of(const ct_fingerprint_t *fp, const char *name)
{
    const ct_fp_var_t *v = ct_fingerprint_var_find(fp->env, fp->nenv, name);
    return v ? v->value : NULL;
}

static const ct_fp_lib_t *lib_of(const ct_fingerprint_t *fp, const char *name)
{
    for (size_t i = 0; i < fp->nlibs; i++)
        if (strcmp(fp->libs[i].name, name) == 0)
            return &fp->libs[i];
    return NULL;
}

static int is_hex(const char *s, size_t min_len)
{
    if (s == NULL || strlen(s) < min_len)
        return 0;
    for (; *s; s++)
        if (!isxdigit((unsigned char)*s) || isupper((unsigned char)*s))
            return 0;
    return 1;
}

static void digest_of(char *const *envp, char *digest)
{
    ct_fingerprint_t fp = {0};
    char *text = NULL;
    CT_CHECK(&tally, ct_fingerprint_env(envp, &fp) == CT_OK);
    CT_CHECK(&tally, ct_fingerprint_host("/nonexistent", &fp) == CT_OK);
    CT_CHECK(&tally, ct_fingerprint_add_mpi_t(&fp, "pml", "ob1") == CT_OK);
    CT_CHECK(&tally, ct_fingerprint_text(&fp, &text) == CT_OK);
    ct_fingerprint_digest(text ? text : "", digest);
    free(text);
    ct_fingerprint_free(&fp);
}

static void test_env(void)
{
    char *envp[] = {"LD_PRELOAD=/opt/shim/libdelay_shim.so",
                    "PATH=/usr/bin",
                    "HOME=/root",
                    "UCX_TLS=rc,sm",
                    "NCCL_ALGO=Ring",
                    "OMPI_MCA_pml=ucx",
                    "OMPI_COMM_WORLD_SIZE=4",
                    "SLURM_NNODES=2",
                    "CUDA_VISIBLE_DEVICES=0,1",
                    "OMPI_COMM_WORLD_RANK=3",
                    "OMPI_COMM_WORLD_LOCAL_RANK=1",
                    "OMPI_MCA_orte_hnp_uri=1234.0;tcp://10.0.0.1:4242",
                    "OMPI_MCA_ess_base_jobid=1234",
                    "PMIX_ID=1234.3",
                    "PMIX_NAMESPACE=1234",
                    "PMIX_SERVER_URI21=1234.0;tcp4://127.0.0.1:47323",
                    "PMIX_HOSTNAME=node7",
                    "SLURM_JOB_ID=99",
                    "SLURM_PROCID=3",
                    "SLURM_TASK_PID=4242",
                    "OMPI_MCA_orte_node_regex=h[1:1-2]",
                    "OMPI_MCA_plm=rsh",
                    "OMPI_MCA_routed=radix",
                    "OMPI_MCA_ess_base_num_procs=4",
                    "LD_LIBRARY_PATH=/usr/lib:/opt/x/lib;/usr/lib::/opt/x/lib:",
                    "UCX_TLS=shadowed",
                    "NOEQUALS",
                    NULL};
    ct_fingerprint_t fp = {0};
    CT_CHECK(&tally, ct_fingerprint_env(envp, &fp) == CT_OK);
    CT_CHECK_STR(&tally, env_of(&fp, "LD_PRELOAD"), "/opt/shim/libdelay_shim.so");
    CT_CHECK_STR(&tally, env_of(&fp, "UCX_TLS"), "rc,sm"); /* the first, as getenv */
    CT_CHECK_STR(&tally, env_of(&fp, "NCCL_ALGO"), "Ring");
    CT_CHECK_STR(&tally, env_of(&fp, "OMPI_MCA_pml"), "ucx");
    CT_CHECK_STR(&tally, env_of(&fp, "OMPI_COMM_WORLD_SIZE"), "4");
    CT_CHECK_STR(&tally, env_of(&fp, "SLURM_NNODES"), "2");
    CT_CHECK_STR(&tally, env_of(&fp, "CUDA_VISIBLE_DEVICES"), "0,1");
    const char *dropped[] = {"PATH",
                             "HOME",
                             "OMPI_COMM_WORLD_RANK",
                             "OMPI_COMM_WORLD_LOCAL_RANK",
                             "OMPI_MCA_orte_hnp_uri",
                             "OMPI_MCA_ess_base_jobid",
                             "PMIX_ID",
                             "PMIX_NAMESPACE",
                             "PMIX_SERVER_URI21",
                             "PMIX_HOSTNAME",
                             "SLURM_JOB_ID",
                             "SLURM_PROCID",
                             "SLURM_TASK_PID",
                             "OMPI_MCA_orte_node_regex",
                             "OMPI_MCA_plm",
                             "OMPI_MCA_routed",
                             "OMPI_MCA_ess_base_num_procs",
                             "NOEQUALS"};
    for (size_t i = 0; i < sizeof dropped / sizeof dropped[0]; i++)
        if (env_of(&fp, dropped[i]) != NULL) {
            fprintf(stderr, "kept %s\n", dropped[i]);
            CT_CHECK(&tally, 0);
        }
    /* Repeats removed: a launcher that prepends its directory again
     * changes nothing the loader finds. */
    CT_CHECK_STR(&tally, env_of(&fp, "LD_LIBRARY_PATH"), "/usr/lib:/opt/x/lib:");
    CT_CHECK(&tally, fp.nenv == 8);
    ct_fingerprint_free(&fp);

    CT_CHECK(&tally, ct_fingerprint_env_keep("MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM"));
    CT_CHECK(&tally, ct_fingerprint_env_keep("I_MPI_ADJUST_ALLREDUCE"));
    /* MVAPICH's families come from ct_library.h's table. */
    CT_CHECK(&tally, ct_fingerprint_env_keep("MV2_USE_SHMEM_COLL"));
    CT_CHECK(&tally, ct_fingerprint_env_keep("MVP_ALLREDUCE_INTRA_ALGORITHM"));
    CT_CHECK(&tally, !ct_fingerprint_env_keep("XMV2_USE_SHMEM_COLL"));
    CT_CHECK(&tally, ct_fingerprint_env_keep("LD_BIND_NOW"));
    CT_CHECK(&tally, !ct_fingerprint_env_keep("LD_PRELOADX"));
    CT_CHECK(&tally, ct_fingerprint_env_keep("MPICH_ASYNC_PROGRESS"));
    CT_CHECK(&tally, !ct_fingerprint_env_keep("MPI_LOCALRANKID"));
    CT_CHECK(&tally, !ct_fingerprint_env_keep("MPIRUN"));
}

static void test_libs(void)
{
    ct_fingerprint_t fp = {0};
    CT_CHECK(&tally, ct_fingerprint_libs(&fp) == CT_OK);
    const ct_fp_lib_t *libc = lib_of(&fp, "libc.so.6");
    CT_CHECK(&tally, libc != NULL);
    if (libc) {
        CT_CHECK(&tally, is_hex(libc->build_id, 40));
        CT_CHECK(&tally, libc->path[0] == '/');
        CT_CHECK_STR(&tally, libc->version, "6");
    }
    /* The program under its own name, with its build id; no vdso. */
    const ct_fp_lib_t *self = lib_of(&fp, "test_fingerprint");
    CT_CHECK(&tally, self != NULL && is_hex(self->build_id, 40) && self->version == NULL);
    CT_CHECK(&tally, lib_of(&fp, "linux-vdso.so.1") == NULL);
    CT_CHECK(&tally, lib_of(&fp, "libfp_probe.so") == NULL);
    for (size_t i = 1; i < fp.nlibs; i++)
        CT_CHECK(&tally, strcmp(fp.libs[i - 1].name, fp.libs[i].name) < 0);
    ct_fingerprint_free(&fp);

    /* A library loaded later shows up, found by its realpath. */
    const char *top = getenv("top_builddir");
    char path[4096], real[4096];
    snprintf(path, sizeof path, "%s/tests/unit/.libs/libfp_probe.so", top ? top : ".");
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    CT_CHECK(&tally, h != NULL);
    if (h == NULL)
        fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
    CT_CHECK(&tally, ct_fingerprint_libs(&fp) == CT_OK);
    const ct_fp_lib_t *probe = lib_of(&fp, "libfp_probe.so");
    CT_CHECK(&tally, probe != NULL);
    if (probe && realpath(path, real)) {
        CT_CHECK_STR(&tally, probe->path, real);
        CT_CHECK(&tally, is_hex(probe->build_id, 40));
        CT_CHECK(&tally, probe->version == NULL);
    }
    ct_fingerprint_free(&fp);
    if (h)
        dlclose(h);

    char *v = ct_fingerprint_lib_version("/usr/lib/x86_64-linux-gnu/libmpi.so.40.30.4");
    CT_CHECK_STR(&tally, v, "40.30.4");
    free(v);
    CT_CHECK(&tally, ct_fingerprint_lib_version("/x/libdelay_shim.so") == NULL);
    CT_CHECK(&tally, ct_fingerprint_lib_version("/x/libfoo.so.1a") == NULL);
    CT_CHECK(&tally, ct_fingerprint_lib_version("/x.so.1/libfoo.so") == NULL);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CT_CHECK(&tally, f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void test_host(void)
{
    char root[] = "/tmp/ct_fp_root.XXXXXX", p[4096];
    CT_CHECK(&tally, mkdtemp(root) != NULL);
    const char *dirs[] = {"/proc",
                          "/sys",
                          "/sys/devices",
                          "/sys/devices/system",
                          "/sys/devices/system/cpu",
                          "/sys/devices/system/cpu/cpu0",
                          "/sys/devices/system/cpu/cpu0/cpufreq"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(p, sizeof p, "%s%s", root, dirs[i]);
        CT_CHECK(&tally, mkdir(p, 0700) == 0);
    }
    snprintf(p, sizeof p, "%s/proc/cpuinfo", root);
    write_file(p, "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Fake CPU @ 2.0GHz  \n"
                  "processor\t: 1\nmodel name\t: Other\n");
    snprintf(p, sizeof p, "%s/sys/devices/system/cpu/online", root);
    write_file(p, "0-3,8\n");
    snprintf(p, sizeof p, "%s/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", root);
    write_file(p, "performance\n");

    ct_fingerprint_t fp = {0};
    CT_CHECK(&tally, ct_fingerprint_host(root, &fp) == CT_OK);
    CT_CHECK_STR(&tally, fp.cpu_model, "Fake CPU @ 2.0GHz");
    CT_CHECK(&tally, fp.cpus_online == 5);
    CT_CHECK_STR(&tally, fp.governor, "performance");
    CT_CHECK(&tally, fp.kernel && strchr(fp.kernel, ' ') && fp.machine && *fp.machine);
    ct_fingerprint_free(&fp);

    /* Nothing there: no model, no governor, the count from sysconf. */
    CT_CHECK(&tally, ct_fingerprint_host("/nonexistent", &fp) == CT_OK);
    CT_CHECK(&tally, fp.cpu_model == NULL && fp.governor == NULL);
    CT_CHECK(&tally, fp.cpus_online == sysconf(_SC_NPROCESSORS_ONLN));
    ct_fingerprint_free(&fp);

    const char *files[] = {"/proc/cpuinfo", "/sys/devices/system/cpu/online",
                           "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(p, sizeof p, "%s%s", root, files[i]);
        unlink(p);
    }
    for (size_t i = sizeof dirs / sizeof dirs[0]; i-- > 0;) {
        snprintf(p, sizeof p, "%s%s", root, dirs[i]);
        rmdir(p);
    }
    rmdir(root);
}

static void test_digest(void)
{
    char *a[] = {"UCX_TLS=rc", "NCCL_PROTO=Simple", "OMPI_COMM_WORLD_RANK=0", NULL};
    char *a_again[] = {"NCCL_PROTO=Simple", "OMPI_COMM_WORLD_RANK=1", "UCX_TLS=rc", NULL};
    char *b[] = {"UCX_TLS=rc", "NCCL_PROTO=LL", "OMPI_COMM_WORLD_RANK=0", NULL};
    char *c[] = {"UCX_TLS=rc", "NCCL_PROTO=Simple", "LD_PRELOAD=/x/libshim.so", NULL};
    char da[CT_FINGERPRINT_DIGEST_LEN], da2[CT_FINGERPRINT_DIGEST_LEN];
    char db[CT_FINGERPRINT_DIGEST_LEN], dc[CT_FINGERPRINT_DIGEST_LEN];
    digest_of(a, da);
    digest_of(a_again, da2);
    digest_of(b, db);
    digest_of(c, dc);
    CT_CHECK(&tally, is_hex(da, 16) && strlen(da) == 16);
    /* Order and a volatile rank change nothing; a variable does. */
    CT_CHECK_STR(&tally, da2, da);
    CT_CHECK(&tally, strcmp(da, db) != 0);
    CT_CHECK(&tally, strcmp(da, dc) != 0);
}

static void test_text(void)
{
    ct_fingerprint_t fp = {0}, back = {0};
    char *envp[] = {"NCCL_DEBUG_FILE=/tmp/a\tb\nc\\d\x01", "OMPI_MCA_btl=^tcp", NULL};
    char *text = NULL, *again = NULL;
    CT_CHECK(&tally, ct_fingerprint_collect(envp, &fp) == CT_OK);
    CT_CHECK(&tally,
             ct_fingerprint_add_mpi_t(&fp, "coll_tuned_use_dynamic_rules", "true") == CT_OK);
    CT_CHECK(&tally, ct_fingerprint_text(&fp, &text) == CT_OK);
    /* One line per item: the escaped newline and tab stay inside theirs. */
    CT_CHECK(&tally, text && strstr(text, "env\tNCCL_DEBUG_FILE\t/tmp/a\\tb\\nc\\\\d\\x01\n"));
    CT_CHECK(&tally, text && strstr(text, "mpi_t\tcoll_tuned_use_dynamic_rules\ttrue\n"));
    CT_CHECK(&tally, ct_fingerprint_parse(text ? text : "", &back) == CT_OK);
    CT_CHECK_STR(&tally, env_of(&back, "NCCL_DEBUG_FILE"), "/tmp/a\tb\nc\\d\x01");
    CT_CHECK(&tally, back.nlibs == fp.nlibs && back.nlibs > 0);
    CT_CHECK(&tally, back.cpus_online == fp.cpus_online);
    CT_CHECK(&tally, ct_fingerprint_text(&back, &again) == CT_OK);
    CT_CHECK_STR(&tally, again, text ? text : "");
    free(again);
    ct_fingerprint_free(&back);

    const char *bad[] = {"",
                         "nope\n",
                         "colltune-fingerprint 1\nkernel\tk\nmachine\tm\n",
                         "colltune-fingerprint 1\nkernel\tk\nmachine\tm\ncpus_online\t2",
                         "colltune-fingerprint 1\nkernel\tk\nmachine\tm\ncpus_online\tx\n",
                         "colltune-fingerprint 1\nkernel\tk\\q\nmachine\tm\ncpus_online\t2\n",
                         "colltune-fingerprint 1\nkernel\tk\nmachine\tm\ncpus_online\t2\n"
                         "lib\ta\tb\n",
                         "colltune-fingerprint 1\nkernel\tk\nmachine\tm\ncpus_online\t2\n"
                         "env\ta\\x00\tb\n",
                         "colltune-fingerprint 1\nkernel\tk\nmachine\tm\ncpus_online\t2\n"
                         "what\ta\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ct_fingerprint_t f = {0};
        if (ct_fingerprint_parse(bad[i], &f) != CT_ERR_PARSE) {
            fprintf(stderr, "parsed bad text %zu\n", i);
            CT_CHECK(&tally, 0);
        }
        ct_fingerprint_free(&f);
    }
    ct_fingerprint_t ok = {0};
    CT_CHECK(&tally, ct_fingerprint_parse("colltune-fingerprint 1\nkernel\tk\nmachine\tm\n"
                                          "cpu_model\t\\N\ncpus_online\t2\ngovernor\t\\N\n",
                                          &ok) == CT_OK);
    CT_CHECK(&tally, ok.cpu_model == NULL && ok.governor == NULL && ok.cpus_online == 2);
    ct_fingerprint_free(&ok);
    free(text);
    ct_fingerprint_free(&fp);
}

static void test_mpi_t(void)
{
    const char *yes[] = {"pml",
                         "coll",
                         "coll_tuned_use_dynamic_rules",
                         "coll_tuned_dynamic_rules_filename",
                         "coll_tuned_bcast_algorithm",
                         "coll_tuned_bcast_algorithm_segmentsize",
                         "coll_tuned_priority",
                         "coll_han_priority",
                         "pml_ucx_tls",
                         "btl_tcp_if_include",
                         "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM"};
    const char *no[] = {"pmlx", "mpi_yield_when_idle", "coll_tuned_bcast", "btl_tcp_eager_limit",
                        "MPIR_CVAR_ASYNC_PROGRESS"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        CT_CHECK(&tally, ct_fingerprint_mpi_t_wanted(yes[i]));
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        CT_CHECK(&tally, !ct_fingerprint_mpi_t_wanted(no[i]));
}

/* Entries no one sets: a name as long as the name buffer (256) or longer,
 * a name with no '=' or an empty one; the rest still read. */
static void test_env_odd(void)
{
    char longname[400];
    memset(longname, 'X', sizeof longname);
    memcpy(longname, "NCCL_", 5);
    longname[300] = '=';
    longname[301] = '1';
    longname[302] = '\0';
    char edge[300];
    memset(edge, 'Y', sizeof edge);
    memcpy(edge, "NCCL_", 5);
    edge[256] = '=';
    edge[257] = '2';
    edge[258] = '\0'; /* a 256-character name: one more than the buffer holds */
    char *envp[] = {longname, edge, "NCCL_ALGO", "=x", "NCCL_PROTO=Simple", NULL};
    ct_fingerprint_t fp = {0};
    CT_CHECK(&tally, ct_fingerprint_env(envp, &fp) == CT_OK);
    CT_CHECK(&tally, fp.nenv == 1 && strcmp(fp.env[0].name, "NCCL_PROTO") == 0);
    ct_fingerprint_free(&fp);
}

int main(void)
{
    test_env();
    test_env_odd();
    test_libs();
    test_host();
    test_digest();
    test_text();
    test_mpi_t();
    return CT_DONE(&tally);
}
