/*
 * A command-line driver for Simon Tatham's Bridges, Towers and Singles backends (his
 * Portable Puzzle Collection, MIT licence), written for csp-puzzles' calibration
 * (`csp-puzzles bench tatham`). It is not part of his collection and holds none of his code:
 * it #includes one of his game files, so it can call that game's own (static) solver and
 * generator, and is compiled against a copy of his source that the user supplies.
 *
 * Build (bench/tatham.py does this):
 *   cc -O2 -I SRC -DGAME_BRIDGES tatham_driver.c SRC/{malloc,misc,random,dsf,tree234,
 *      findloop,latin,matching,sort,nullfe}.c -lm
 *
 * Usage:
 *   driver grade            one game ID per line on stdin; prints, per line,
 *                           "<level>\t<solution>" (level: his level names, "beyond" when
 *                           his hardest level cannot finish, "impossible", "ambiguous")
 *                           or "invalid\t<his message>" when his game refuses the ID
 *   driver generate P S N   N game IDs his generator makes for parameters P, seed S
 */

#include <stdio.h>
#include <string.h>

#if defined(GAME_BRIDGES)
#include "bridges.c"
#elif defined(GAME_TOWERS)
#include "towers.c"
#elif defined(GAME_SINGLES)
#include "singles.c"
#else
#error "define GAME_BRIDGES, GAME_TOWERS or GAME_SINGLES"
#endif

/* Parse "params:desc" as his midend does; NULL and *err set when he refuses it. */
static game_params *read_id(char *id, char **desc, const char **err)
{
    game_params *params;
    char *colon = strchr(id, ':');

    if (!colon) {
        *err = "no colon in game ID";
        return NULL;
    }
    *colon = '\0';
    *desc = colon + 1;
    params = default_params();
    decode_params(params, id);
    *err = validate_params(params, false);
    if (!*err)
        *err = validate_desc(params, *desc);
    if (*err) {
        free_params(params);
        return NULL;
    }
    return params;
}

#if defined(GAME_BRIDGES)
static const char *const level_names[] = { "easy", "medium", "hard" };

/* The bridges of a solved state, "r1,c1,r2,c2,n;..." (rows and columns from 0). */
static void print_solution(game_state *state)
{
    int i, j;
    for (i = 0; i < state->n_islands; i++) {
        struct island *is = &state->islands[i];
        for (j = 0; j < is->adj.npoints; j++) {
            struct island *other;
            int n;
            if (is->adj.points[j].dx < 0 || is->adj.points[j].dy < 0)
                continue;
            other = island_find_connection(is, j);
            if (!other)
                continue;
            n = INDEX(state, lines, is->adj.points[j].x, is->adj.points[j].y);
            printf("%d,%d,%d,%d,%d;", is->y, is->x, other->y, other->x, n);
        }
    }
}

static void grade_one(game_params *params, const char *desc)
{
    int level;
    for (level = 0; level < 3; level++) {
        game_state *state = new_game_sub(params, desc);
        if (solve_from_scratch(state, level)) {
            printf("%s\t", level_names[level]);
            print_solution(state);
            printf("\n");
            free_game(state);
            return;
        }
        free_game(state);
    }
    printf("beyond\t\n");
}
#elif defined(GAME_TOWERS)
static const char *const level_names[] = { "easy", "hard", "extreme", "unreasonable" };

static void grade_one(game_params *params, const char *desc)
{
    game_state *state = new_game(NULL, params, desc);
    int w = params->w, level, ret = diff_impossible, i;

    for (level = 0; level < DIFFCOUNT; level++) {
        memcpy(state->grid, state->clues->immutable, w * w);
        ret = solver(w, state->clues->clues, state->grid, level);
        if (ret <= level)
            break;
    }
    if (level == DIFFCOUNT)
        printf("ambiguous\t\n");
    else if (ret == diff_impossible)
        printf("impossible\t\n");
    else {
        printf("%s\t", level_names[ret]);
        for (i = 0; i < w * w; i++)
            printf("%d", state->grid[i]);
        printf("\n");
    }
    free_game(state);
}
#elif defined(GAME_SINGLES)
static void grade_one(game_params *params, const char *desc)
{
    int level, ret, i;
    for (level = 0; level < DIFF_MAX; level++) {
        game_state *state = new_game(NULL, params, desc);
        ret = solve_specific(state, level, false);
        if (ret > 0) {
            printf("%s\t", level == DIFF_EASY ? "easy" : "tricky");
            for (i = 0; i < state->n; i++)
                if (state->flags[i] & F_BLACK)
                    printf("%d,%d;", i / state->w, i % state->w);
            printf("\n");
            free_game(state);
            return;
        }
        free_game(state);
        if (ret < 0) {
            printf("impossible\t\n");
            return;
        }
    }
    printf("beyond\t\n");
}
#endif

static int grade_lines(void)
{
    static char line[1 << 20];
    while (fgets(line, sizeof(line), stdin)) {
        char *desc;
        const char *err;
        game_params *params;
        line[strcspn(line, "\r\n")] = '\0';
        params = read_id(line, &desc, &err);
        if (!params) {
            printf("invalid\t%s\n", err);
        } else {
            grade_one(params, desc);
            free_params(params);
        }
        fflush(stdout);
    }
    return 0;
}

static int generate(const char *encoded, const char *seed, int count)
{
    game_params *params = default_params();
    random_state *rs = random_new(seed, strlen(seed));
    const char *err;
    int i;

    decode_params(params, encoded);
    err = validate_params(params, true);
    if (err) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    for (i = 0; i < count; i++) {
        char *aux = NULL;
        char *desc = new_game_desc(params, rs, &aux, false);
        char *short_params = encode_params(params, false);
        printf("%s:%s\n", short_params, desc);
        fflush(stdout);
        sfree(short_params);
        sfree(desc);
        sfree(aux);
    }
    random_free(rs);
    free_params(params);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "grade"))
        return grade_lines();
    if (argc == 5 && !strcmp(argv[1], "generate"))
        return generate(argv[2], argv[3], atoi(argv[4]));
    fprintf(stderr, "usage: %s grade | generate PARAMS SEED COUNT\n", argv[0]);
    return 2;
}
